// Field rules of the beta application, shared so the client's form refuses what the server does.
export const TELEGRAM_PATTERN = /^@?[A-Za-z0-9_]{5,32}$/;
/** Current Discord usernames: 2–32 of a-z, 0-9, _ and . (case-insensitive). */
export const DISCORD_PATTERN = /^[a-z0-9_.]{2,32}$/;
/** Legacy Discord tags: a 2–32 character name, '#', four digits. */
export const DISCORD_LEGACY_PATTERN = /^[^@#:`\s][^@#:`]{0,30}[^@#:`\s]#\d{4}$/;
export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const BETA_EMAIL_MAX = 254;

export const isValidTelegram = (v: string) => TELEGRAM_PATTERN.test(v);
export const isValidDiscord = (v: string) => DISCORD_PATTERN.test(v.toLowerCase()) || DISCORD_LEGACY_PATTERN.test(v);
export const isValidWallet = (v: string) => WALLET_PATTERN.test(v);
