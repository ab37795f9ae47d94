// Where the footer and the social quests point. Operators set their own channels at build time
// (VITE_* variables, see README); the defaults are the project's public channels' names.
const env = import.meta.env;

export const SOCIAL_LINKS = {
  telegram_ru: env.VITE_TELEGRAM_RU_URL || 'https://t.me/pxt_punks_ru',
  telegram_eng: env.VITE_TELEGRAM_ENG_URL || 'https://t.me/pxt_punks',
  discord: env.VITE_DISCORD_URL || 'https://discord.gg/pxtpunks',
} as const;

export const CONTACT_EMAIL: string = env.VITE_CONTACT_EMAIL || 'hello@pxt.games';
export const MAKER_URL: string = env.VITE_MAKER_URL || 'https://pxt.games';
