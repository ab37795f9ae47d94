// The raw init data of this Mini App launch, as Telegram put it in the address (kept in
// sessionStorage by lib/telegram-host.ts, since the app's navigation drops the hash). Read by the
// Mini App's sign-in and by the reauth prompt's "Confirm with Telegram"; not in the first visit.
import { isTelegramLaunch, LAUNCH_PARAMS_KEY } from './telegram-host';

export function launchInitData(): string | undefined {
  if (!isTelegramLaunch()) return undefined;
  try {
    const kept = sessionStorage.getItem(LAUNCH_PARAMS_KEY);
    const params = new URLSearchParams(kept ? (JSON.parse(kept) as string) : location.hash.slice(1));
    return params.get('tgWebAppData') ?? undefined;
  } catch {
    return undefined;
  }
}
