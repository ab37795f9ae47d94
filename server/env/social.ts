// Telegram and Discord settings from the environment (decisions §14): variables that only make
// sense together, checked together. Unset, the feature is off and the app behaves as before. Their
// variables are declared in env/variables.ts.
import type { Env } from './variables';

export interface TelegramSettings {
  botToken: string;
  /** Without the leading @. */
  botUsername: string;
  /** The bot's numeric id: the token's part before the colon (the Login Widget's bot_id). */
  botId: number;
  webhookSecret: string;
  /** TELEGRAM_API_BASE without a trailing slash; grammY adds `/bot<token>/<method>`. */
  apiBase: string;
  /** How long one Bot API call may take (not from the environment; tests shorten it). */
  timeoutMs: number;
  /** Channels whose follow quests pay only for members; null: that follow stays a trusted click. */
  channels: { ru: string | null; en: string | null };
}

export interface DiscordSettings {
  clientId: string;
  clientSecret: string;
  guildId: string;
  /** DISCORD_API_BASE without a trailing slash (default https://discord.com/api/v10). */
  apiBase: string;
  /** How long one Discord call may take (not from the environment; tests shorten it). */
  timeoutMs: number;
}

function apiBaseFrom(name: string, given: string, production: boolean): string {
  const base = given.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`${name} must be a URL, got "${given}"`);
  }
  // The bot token and the client secret travel with every call.
  if (url.protocol !== 'https:' && (production || url.protocol !== 'http:'))
    throw new Error(`${name} must be https${production ? ' in production' : ''}, got "${given}"`);
  return base;
}

const CHANNEL = /^(@[A-Za-z][A-Za-z0-9_]{3,31}|-?\d{1,20})$/;

export function telegramFrom(env: Env, production: boolean): TelegramSettings | null {
  const token = env.TELEGRAM_BOT_TOKEN || '';
  const username = (env.TELEGRAM_BOT_USERNAME || '').replace(/^@/, '');
  const channels = { ru: env.TELEGRAM_CHANNEL_RU || null, en: env.TELEGRAM_CHANNEL_EN || null };
  if (!token && !username) {
    if (channels.ru || channels.en)
      throw new Error('TELEGRAM_CHANNEL_RU/_EN need TELEGRAM_BOT_TOKEN: the bot checks membership');
    return null;
  }
  if (!token || !username)
    throw new Error('TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_USERNAME go together: set both or neither');
  const match = /^(\d{1,20}):[A-Za-z0-9_-]{30,}$/.exec(token);
  if (!match) throw new Error('TELEGRAM_BOT_TOKEN must look like 123456789:AA… (the token BotFather gave)');
  if (!/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(username))
    throw new Error(`TELEGRAM_BOT_USERNAME must be the bot's username, got "${env.TELEGRAM_BOT_USERNAME}"`);
  const secret = env.TELEGRAM_WEBHOOK_SECRET || '';
  // Without it anyone could post updates as Telegram (decisions §14): refuse to start rather than run open.
  if (!/^[A-Za-z0-9_-]{16,256}$/.test(secret))
    throw new Error('TELEGRAM_WEBHOOK_SECRET is required with the bot: 16–256 characters of A-Z a-z 0-9 _ -');
  for (const [name, value] of [
    ['TELEGRAM_CHANNEL_RU', channels.ru],
    ['TELEGRAM_CHANNEL_EN', channels.en],
  ] as const)
    if (value !== null && !CHANNEL.test(value))
      throw new Error(`${name} must be a channel's @name or numeric id, got "${value}"`);
  return {
    botToken: token,
    botUsername: username,
    botId: Number(match[1]),
    webhookSecret: secret,
    apiBase: apiBaseFrom('TELEGRAM_API_BASE', env.TELEGRAM_API_BASE || 'https://api.telegram.org', production),
    timeoutMs: 10_000,
    channels,
  };
}

export function discordFrom(env: Env, production: boolean): DiscordSettings | null {
  const clientId = env.DISCORD_CLIENT_ID || '';
  const clientSecret = env.DISCORD_CLIENT_SECRET || '';
  const guildId = env.DISCORD_GUILD_ID || '';
  const given = [clientId, clientSecret, guildId].filter(Boolean).length;
  if (given === 0) return null;
  if (given < 3)
    throw new Error('DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_GUILD_ID go together: set all three or none');
  if (!/^\d{1,20}$/.test(clientId))
    throw new Error(`DISCORD_CLIENT_ID must be the application's id, got "${clientId}"`);
  if (!/^\d{1,20}$/.test(guildId)) throw new Error(`DISCORD_GUILD_ID must be the server's id, got "${guildId}"`);
  return {
    clientId,
    clientSecret,
    guildId,
    apiBase: apiBaseFrom('DISCORD_API_BASE', env.DISCORD_API_BASE || 'https://discord.com/api/v10', production),
    timeoutMs: 10_000,
  };
}
