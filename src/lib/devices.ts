// The browser's proofs of decisions §13. `device`: every sign-in answers an opaque known-device
// string for that account; the browser keeps them (newest first, one per account, at most
// DEVICE_HEADER_MAX) and sends them comma-separated as X-Device with every sign-in call and with
// /auth/reauth/. `registration`: POST /auth/register/ answers one; the browser keeps the newest few
// (REGISTRATION_HEADER_MAX: "send again" registers again, and the first mail's link still counts)
// and sends them as X-Registration when it opens a registration link, so the password typed here counts.

import { DEVICE_HEADER, DEVICE_HEADER_MAX, REGISTRATION_HEADER, REGISTRATION_HEADER_MAX } from '@shared/auth-headers';
import { accountOfToken } from './session';

export const DEVICE_STORAGE_KEY = 'pxt.devices';
export const REGISTRATION_STORAGE_KEY = 'pxt.registration';

interface Entry {
  device: string;
  /** Whose string it is (the account id of the sign-in that answered it), when known. */
  account?: string;
}

/** A device string is opaque; this only refuses what could break the header (commas, spaces, controls, huge). */
const usable = (s: unknown): s is string =>
  typeof s === 'string' && s.length > 0 && s.length <= 512 && /^[\x21-\x2b\x2d-\x7e]+$/.test(s);

function readEntries(): Entry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEVICE_STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .map((e): Entry | null =>
        usable(e) ? { device: e } : e && typeof e === 'object' && usable((e as Entry).device) ? (e as Entry) : null,
      )
      .filter((e): e is Entry => e !== null)
      .slice(0, DEVICE_HEADER_MAX);
  } catch {
    return [];
  }
}

/** The kept device strings, newest first. */
export const storedDevices = (): string[] => readEntries().map((e) => e.device);

/**
 * Keeps the device string a sign-in answered, newest first. `account` names whose it is: a new
 * string of the same account replaces its old one, so each account keeps one place in the list.
 */
export function rememberDevice(device: string | undefined | null, account?: string | null): void {
  if (!usable(device)) return;
  const kept = readEntries().filter((e) => e.device !== device && !(account && e.account === account));
  const next = [{ device, ...(account ? { account } : {}) }, ...kept].slice(0, DEVICE_HEADER_MAX);
  try {
    localStorage.setItem(DEVICE_STORAGE_KEY, JSON.stringify(next));
  } catch {
    /* storage unavailable: sign-in still works, only without the known-device limit */
  }
}

/**
 * Keeps the `device` of an answer for its account (here, not in lib/session.ts: a visitor's first
 * page loads no device code): a sign-in's, or a new generation's after the server forgot the
 * account's other devices. `account`: whose it is when the answer carries no access token.
 */
export async function keepDevice<T extends { access?: string; device?: string }>(
  answer: Promise<T>,
  account: string | null = null,
): Promise<T> {
  const a = await answer;
  if (a.device) rememberDevice(a.device, accountOfToken(a.access) ?? account);
  return a;
}

/** `{ 'x-device': 'newest,older,…' }`, or nothing when this browser keeps no device string. */
export function deviceHeaders(): Record<string, string> {
  const list = storedDevices();
  return list.length ? { [DEVICE_HEADER]: list.join(',') } : {};
}

/** The kept registration strings, newest first (one plain string, as kept before lists). */
function storedRegistrations(): string[] {
  try {
    const raw = localStorage.getItem(REGISTRATION_STORAGE_KEY);
    if (raw === null) return [];
    if (usable(raw) && !raw.startsWith('[')) return [raw];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(usable).slice(0, REGISTRATION_HEADER_MAX) : [];
  } catch {
    return [];
  }
}

export function rememberRegistration(registration: string | undefined | null): void {
  if (!usable(registration)) return;
  const next = [registration, ...storedRegistrations().filter((r) => r !== registration)].slice(
    0,
    REGISTRATION_HEADER_MAX,
  );
  try {
    localStorage.setItem(REGISTRATION_STORAGE_KEY, JSON.stringify(next));
  } catch {
    /* storage unavailable: the link then works as if opened elsewhere (a password is asked for) */
  }
}

/** `{ 'x-registration': 'newest,older,…' }`, or nothing. */
export function registrationHeaders(): Record<string, string> {
  const kept = storedRegistrations();
  return kept.length ? { [REGISTRATION_HEADER]: kept.join(',') } : {};
}

/** Forgets the registration strings once a link has worked (the account's other links are void then). */
export function forgetRegistration(): void {
  try {
    localStorage.removeItem(REGISTRATION_STORAGE_KEY);
  } catch {
    /* nothing to do */
  }
}
