// Haptic feedback inside Telegram (decisions §14: a claim), for features that must not import the
// Telegram feature: it registers the player here once Telegram's SDK runs; elsewhere nothing does,
// and a call does nothing. Not in telegram-host.ts, which every first visit loads.
export type TelegramHapticKind = 'success' | 'error';

let play: ((kind: TelegramHapticKind) => void) | null = null;

/** Called by src/features/telegram once the SDK is initialised. */
export function setTelegramHaptic(player: (kind: TelegramHapticKind) => void): void {
  play = player;
}

export function telegramHaptic(kind: TelegramHapticKind): void {
  play?.(kind);
}
