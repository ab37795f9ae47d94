// The player's language for what the server writes itself (mails, push, bot messages): the
// interface's `X-Language` of a call, kept on the account as `users.locale` (decisions §13).
import type { FastifyRequest } from 'fastify';
import type { Language } from '@shared/constants';
import type { Tx } from '../db/schema';
import type { NowOrLater } from '../lib/now-or-later';

export type Locale = Language;

/** A stored or sent value as one of our languages: Russian for `ru…`, anything else English. */
export const localeFrom = (value: string | null | undefined): Locale =>
  typeof value === 'string' && /^\s*ru\b/i.test(value) ? 'ru' : 'en';

/** The language of the interface a request came from: the client sends it, else the browser's first choice. */
export function localeOf(request: FastifyRequest): Locale {
  const said = request.headers['x-language'] ?? request.headers['accept-language'];
  return localeFrom(typeof said === 'string' ? said : null);
}

/** The interface's language only when the app said it (`X-Language`); a bare browser preference is not a choice. */
export function chosenLocale(request: FastifyRequest): Locale | null {
  const said = request.headers['x-language'];
  return typeof said === 'string' && said.trim() !== '' ? localeFrom(said) : null;
}

/**
 * Keeps the account's language in step with the interface (issue 24): GET /auth/me, which every
 * page load and the reload after a language switch make, compares the row it reads anyway with the
 * call's `X-Language` and writes only when they differ, so a player's calls cost no write.
 */
export function followInterfaceLanguage(
  db: Tx,
  request: FastifyRequest,
  user: { id: number | string; locale: string },
): NowOrLater<void> {
  const chosen = chosenLocale(request);
  // Most calls: nothing to write, and no promise to wait for.
  if (chosen === null || chosen === user.locale) return undefined;
  return db
    .updateTable('users')
    .set({ locale: chosen })
    .where('id', '=', Number(user.id))
    .execute()
    .then(() => undefined);
}
