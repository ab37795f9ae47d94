// A bot link `t.me/<bot>?startapp=ref_<code>` (or the bot's `/start ref_<code>` button) opens the
// Mini App with the start parameter `ref_<code>`: it counts like the web's referral link
// `/?refCode=<code>`, kept where the query handler keeps that link, so the first-username dialog
// sends it with complete-registration.
import { STORAGE_KEYS } from '@shared/constants';

const REF = /^ref_([A-Za-z0-9_-]{1,64})$/;

/** The referral code a start parameter carries, or null. */
export function refCodeOfStartParam(startParam: string | undefined | null): string | null {
  return REF.exec(startParam ?? '')?.[1] ?? null;
}

/** Keeps the start parameter's referral as the visitor's referral link (a link in the address wins). */
export function keepStartReferral(startParam: string | undefined | null, origin = location.origin): void {
  const code = refCodeOfStartParam(startParam);
  if (!code || new URLSearchParams(location.search).has('refCode')) return;
  try {
    localStorage.setItem(STORAGE_KEYS.referral, `${origin}/?refCode=${encodeURIComponent(code)}`);
  } catch {
    /* storage blocked: the referral is lost, the app still works */
  }
}
