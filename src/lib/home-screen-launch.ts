// The installed app opened from the home screen (manifest `start_url`, sw/pwa-options.ts): a
// signed-in player starts on the miner, a visitor on the landing; the launch mark leaves the address
// either way (issue 24: the app opened on the landing, two taps away from Start).
import { HOME_SCREEN_LAUNCH } from '@shared/constants';

/** The address to start on instead of `url` (path, query and hash), or null when it is no launch. */
export function homeScreenStart(
  url: { pathname: string; search: string; hash: string },
  signedIn: boolean,
): string | null {
  if (url.pathname !== '/') return null;
  const query = new URLSearchParams(url.search);
  if (query.get(HOME_SCREEN_LAUNCH.param) !== HOME_SCREEN_LAUNCH.value) return null;
  query.delete(HOME_SCREEN_LAUNCH.param);
  const rest = query.toString();
  return `${signedIn ? '/miner' : '/'}${rest ? `?${rest}` : ''}${url.hash}`;
}
