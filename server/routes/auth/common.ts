// What the /auth/* route files share: e-mail links into the app, common refusals, and a retry for
// sign-ups that race on a unique column.
import { EMAIL_IN_USE } from '@shared/api/auth';
import type { FastifyRequest } from 'fastify';
import { ApiError, invalidField, notAuthenticated, refuse } from '../../lib/errors';
import type { Tx } from '../../db/schema';
import { findUserById, isUniqueViolation, type User } from '../../services/users';

/** Modals the app opens from a link (spec §2 query parameters). */
export type LinkModal =
  | 'confirmRegistration'
  | 'restorePassword'
  | 'confirmEmailChange'
  | 'confirmEmail'
  | 'confirmPasswordChange'
  | 'undoEmailChange';

export function modalLink(appUrl: string, modal: LinkModal, params: Record<string, string>): string {
  return `${appUrl}/?${new URLSearchParams({ modal, ...params }).toString()}`;
}

export const emailInUse = (field: string) => invalidField(field, EMAIL_IN_USE, 'email_in_use');
export const invalidLink = () => refuse('invalid_token', 'This link is invalid or has expired.');
export const SECURITY = [{ bearer: [] }];
/** A call that signs in without a token and links to the signed-in account with one (the document cannot derive this). */
export const OPTIONAL_BEARER: { [scheme: string]: string[] }[] = [{}, { bearer: [] }];
/** A link that changes an account's address opened by anyone but that account (decisions §13): nothing changes. */
export const wrongAccount = () =>
  new ApiError(
    403,
    'wrong_account',
    'Open this link in the browser where you are signed in to the account that asked for it, or sign in to that account first.',
  );

/** The signed-in player's row (after `app.requireUser`); a token of a deleted account is a 401. */
export async function currentUser(db: Tx, request: FastifyRequest): Promise<User> {
  const user = request.userId === null ? undefined : await findUserById(db, request.userId);
  if (!user) throw notAuthenticated();
  return user;
}

/**
 * Runs `fn` again when it failed on a unique constraint: two requests creating the same account
 * at once both pass their "does it exist?" check, and the loser's second run finds the winner's row.
 */
export async function retryOnUniqueViolation<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !isUniqueViolation(err)) throw err;
    }
  }
}
