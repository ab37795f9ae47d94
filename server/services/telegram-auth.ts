// Telegram's word for who a player is (decisions §14): the Mini App's init data, checked with
// @tma.js/init-data-node as Telegram specifies (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app),
// or the Login Widget's fields, checked as https://core.telegram.org/widgets/login#checking-authorization
// says. Both are signed with the bot token, at most 24 h old, and each `hash` is accepted once
// (`telegram_auth_hashes`), so a copied link or a logged request never signs in a second time.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { validate } from '@tma.js/init-data-node';
import { z } from 'zod';
import { telegramLoginSchema } from '@shared/api/auth';
import type { TelegramSettings } from '../config';
import type { Tx } from '../db/schema';
import { ApiError, refuse } from '../lib/errors';

/** How long Telegram's signed data stays good (the decisions' 24 h). */
export const TELEGRAM_AUTH_MAX_AGE_S = 86_400;
/** An `auth_date` this far ahead of our clock is still taken: Telegram's clock and ours differ a little. */
const FUTURE_SKEW_S = 60;

export interface TelegramIdentity {
  /** The Telegram user id, as `users.telegram_id` keeps it. */
  id: string;
  /** `@username`, else the first and last name: what the methods list and the bot show. */
  name: string;
  /** The signature, accepted once. */
  hash: string;
  /** When the signed data would have expired anyway (ms): its replay record can go then. */
  expiresAt: number;
}

export type TelegramProof = { init_data: string } | { login: z.output<typeof telegramLoginSchema> };

/** Refused while the server has no bot (TELEGRAM_BOT_TOKEN unset): documented as 503 `telegram_off`. */
export function telegramSettings(app: FastifyInstance): TelegramSettings {
  if (!app.config.telegram)
    throw new ApiError(503, 'telegram_off', 'Telegram sign-in is not available on this server.');
  return app.config.telegram;
}

const invalid = () =>
  refuse('telegram_data_invalid', 'Telegram did not sign this sign-in data. Open the app from Telegram again.');
const expired = () =>
  refuse('telegram_data_expired', 'This Telegram sign-in has expired. Open the app from Telegram again.');
export const telegramDataUsed = () =>
  refuse('telegram_data_used', 'This Telegram sign-in was already used. Sign in with Telegram again.');

/** The parts of init data's `user` we keep (Telegram adds more; they stay signed but unread). */
const initDataUserSchema = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  first_name: z.string().max(256),
  last_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
});

const nameOf = (u: { first_name: string; last_name?: string; username?: string }) =>
  (u.username ? `@${u.username}` : [u.first_name, u.last_name].filter(Boolean).join(' ').trim()) || 'Telegram';

function checkAuthDate(authDate: number, now: number): number {
  if (!Number.isSafeInteger(authDate) || authDate <= 0) throw invalid();
  const seconds = Math.floor(now / 1000);
  if (authDate > seconds + FUTURE_SKEW_S) throw invalid();
  if (authDate < seconds - TELEGRAM_AUTH_MAX_AGE_S) throw expired();
  return (authDate + TELEGRAM_AUTH_MAX_AGE_S) * 1000;
}

/** The Mini App's raw init data (`tgWebAppData`): signed with HMAC(HMAC("WebAppData", token)). */
export function checkInitData(settings: TelegramSettings, initData: string, now = Date.now()): TelegramIdentity {
  // Telegram sends each field once. Given twice, the library checks the signature against the last
  // `hash` and the replay guard would record another: a used init data with a new hash in front.
  const fields = new URLSearchParams(initData);
  const keys = [...fields.keys()];
  if (new Set(keys).size !== keys.length) throw invalid();
  try {
    validate(initData, settings.botToken, { expiresIn: TELEGRAM_AUTH_MAX_AGE_S });
  } catch (err) {
    // By name: the library's error classes (error-kid) do not answer instanceof.
    throw (err as Error | null)?.name === 'ExpiredError' ? expired() : invalid();
  }
  // The library's parse() insists on `signature` (Telegram's Ed25519 signature for third parties),
  // which this check does not use and which a bot's own clients need not send: read the signed fields here.
  const expiresAt = checkAuthDate(Number(fields.get('auth_date')), now);
  let user: z.infer<typeof initDataUserSchema>;
  try {
    user = initDataUserSchema.parse(JSON.parse(fields.get('user') ?? ''));
  } catch {
    throw invalid();
  }
  return { id: String(user.id), name: nameOf(user), hash: fields.get('hash')!, expiresAt };
}

/** The Login Widget's fields: signed with HMAC(SHA-256(token)) over the sorted `key=value` lines. */
export function checkLoginWidget(
  settings: TelegramSettings,
  login: z.output<typeof telegramLoginSchema>,
  now = Date.now(),
): TelegramIdentity {
  const { hash, ...signed } = login;
  const checkString = Object.entries(signed)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort()
    .join('\n');
  const key = createHash('sha256').update(settings.botToken).digest();
  const expected = createHmac('sha256', key).update(checkString).digest();
  const given = Buffer.from(hash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const expiresAt = checkAuthDate(login.auth_date, now);
  return { id: String(login.id), name: nameOf(login), hash, expiresAt };
}

export function checkTelegramProof(settings: TelegramSettings, proof: TelegramProof, now = Date.now()) {
  return 'init_data' in proof
    ? checkInitData(settings, proof.init_data, now)
    : checkLoginWidget(settings, proof.login, now);
}

/**
 * Records the signature as used, inside the caller's transaction (a sign-in that fails afterwards
 * leaves it usable); refuses it when it was used before. No unique violation is raised, so a
 * PostgreSQL transaction is not aborted by a replay.
 */
export async function markTelegramHashUsed(trx: Tx, identity: TelegramIdentity): Promise<void> {
  const inserted = await trx
    .insertInto('telegram_auth_hashes')
    .values({ hash: identity.hash, expires_at: identity.expiresAt })
    .onConflict((oc) => oc.column('hash').doNothing())
    .returning('hash')
    .executeTakeFirst();
  if (!inserted) throw telegramDataUsed();
}

/** Replay records of signatures that have expired anyway (workers/account-cleanup.ts). */
export async function deleteExpiredTelegramHashes(db: Tx, now = Date.now()): Promise<number> {
  const deleted = await db.deleteFrom('telegram_auth_hashes').where('expires_at', '<', now).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
