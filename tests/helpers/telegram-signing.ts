// Init data and Login Widget data signed the way Telegram signs them, for tests (nothing here
// reaches Telegram). Mini App: the key is HMAC-SHA256("WebAppData", bot token); Login Widget: the
// key is SHA-256(bot token). Both sign the "data-check-string": every field but `hash`, sorted,
// as `key=value` lines.
import { createHash, createHmac } from 'node:crypto';

export interface TelegramTestUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

const checkString = (fields: Record<string, string>) =>
  Object.keys(fields)
    .filter((k) => k !== 'hash')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');

/**
 * The raw init data string (`tgWebAppData`) Telegram would hand a Mini App. `signature`: the Ed25519
 * signature for third parties that clients since Bot API 8.0 add (Telegram's SDK for the page,
 * @tma.js/sdk 3, refuses init data without one); it is one more signed field for the bot's check.
 */
export function signInitData(
  botToken: string,
  opts: { user: TelegramTestUser; authDate?: number; startParam?: string; queryId?: string; signature?: string },
): string {
  const fields: Record<string, string> = {
    auth_date: String(opts.authDate ?? Math.floor(Date.now() / 1000)),
    query_id: opts.queryId ?? `AAH${Math.random().toString(36).slice(2, 12)}`,
    user: JSON.stringify(opts.user),
  };
  if (opts.startParam !== undefined) fields.start_param = opts.startParam;
  if (opts.signature !== undefined) fields.signature = opts.signature;
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  fields.hash = createHmac('sha256', secret).update(checkString(fields)).digest('hex');
  return new URLSearchParams(fields).toString();
}

/** The fields the Login Widget passes to its callback (`data-auth-url` query or `onauth` object). */
export function signLoginWidget(
  botToken: string,
  opts: { user: TelegramTestUser; authDate?: number; photoUrl?: string },
): Record<string, string> {
  const fields: Record<string, string> = {
    id: String(opts.user.id),
    first_name: opts.user.first_name,
    auth_date: String(opts.authDate ?? Math.floor(Date.now() / 1000)),
  };
  if (opts.user.last_name) fields.last_name = opts.user.last_name;
  if (opts.user.username) fields.username = opts.user.username;
  if (opts.photoUrl) fields.photo_url = opts.photoUrl;
  const secret = createHash('sha256').update(botToken).digest();
  fields.hash = createHmac('sha256', secret).update(checkString(fields)).digest('hex');
  return fields;
}

/** A token shaped like BotFather's, different each call. */
export const testBotToken = () =>
  `${1_000_000 + Math.floor(Math.random() * 8_000_000)}:AA${createHash('sha256').update(String(Math.random())).digest('base64url').slice(0, 33)}`;
