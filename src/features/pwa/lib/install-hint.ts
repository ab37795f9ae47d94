// Which install help to show (pure parts unit-tested): Chromium offers a real prompt
// (`beforeinstallprompt`); iOS Safari has none, so it gets the short "Share → Add to Home Screen"
// how-to. Nothing shows inside the installed app or after the player dismissed it.

export const INSTALL_DISMISSED_KEY = 'pxt.installDismissed';

export interface DeviceFacts {
  userAgent: string;
  /** navigator.platform / maxTouchPoints: iPadOS reports itself as a Mac with touch. */
  platform: string;
  maxTouchPoints: number;
  standalone: boolean;
}

export function isIos(d: Pick<DeviceFacts, 'userAgent' | 'platform' | 'maxTouchPoints'>): boolean {
  return /iphone|ipad|ipod/i.test(d.userAgent) || (d.platform === 'MacIntel' && d.maxTouchPoints > 1);
}

export type InstallHint = 'none' | 'prompt' | 'ios';

export function installHint(d: DeviceFacts & { hasPrompt: boolean; dismissed: boolean }): InstallHint {
  if (d.standalone || d.dismissed) return 'none';
  if (d.hasPrompt) return 'prompt';
  return isIos(d) ? 'ios' : 'none';
}

export function deviceFacts(): DeviceFacts {
  const nav = navigator as Navigator & { standalone?: boolean };
  return {
    userAgent: nav.userAgent,
    platform: nav.platform ?? '',
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    standalone: nav.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true,
  };
}

export function readDismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberDismissed(): void {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, '1');
  } catch {
    /* private mode: dismissed for this page only */
  }
}
