// The installed app opened from the home screen (manifest `start_url`, sw/pwa-options.ts): a
// signed-in player starts on the miner, a visitor on the landing; the launch mark leaves the address
// either way (issue 24: the app opened on the landing, two taps away from Start). The manifest's
// start address is exactly HOME_SCREEN_START_URL: nothing else rides on it.
import { HOME_SCREEN_START_URL } from '@shared/constants';

/** The address to start on instead of `url`, or null when it is no launch from the home screen. */
export const homeScreenStart = (url: { pathname: string; search: string; hash: string }, signedIn: boolean) =>
  url.pathname + url.search === HOME_SCREEN_START_URL ? (signedIn ? '/miner' : '/') + url.hash : null;
