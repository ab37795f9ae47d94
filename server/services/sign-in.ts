// What every sign-in does (e-mail, wallet, Google, a confirmation link): open a session (decisions
// §13), answer its access and refresh tokens and the browser's known-device string for the account,
// and mail a notice when the browser brought no device string of this account (in its generation).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../db/schema';
import { noticeAccount } from './account-notices';
import { localeOf } from './player-locale';
import { issueRefreshToken } from './refresh-tokens';
import { openSession } from './sessions';

export interface SignedIn {
  access: string;
  refresh: string;
  device: string;
}

/**
 * Opens the session inside the caller's transaction; the notice goes out only if it commits and answers.
 * `ownDevice`: the browser proved itself the account's by other means (its live refresh token), so a
 * device string it lacks (forgotten by the change it is making) is no news to the owner.
 */
export async function startSession(
  app: FastifyInstance,
  trx: Tx,
  userId: number,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { ownDevice?: boolean } = {},
): Promise<SignedIn> {
  const sessionId = await openSession(trx, userId, { userAgent: request.headers['user-agent'], ip: request.ip });
  const refresh = await issueRefreshToken(trx, userId, sessionId);
  const user = await trx
    .updateTable('users')
    .set({ locale: localeOf(request) })
    .where('id', '=', userId)
    .returning(['id', 'device_epoch'])
    .executeTakeFirstOrThrow();
  const known = app.knownDevices.of(request, user);
  // Mailed after the answer, and only when it succeeded: a rolled-back sign-in signed nobody in.
  if (!known && !opts.ownDevice)
    reply.raw.once(
      'finish',
      () => reply.statusCode < 300 && noticeAccount(app, request, reply, userId, { kind: 'new_device' }),
    );
  return {
    access: app.issueAccess(userId, sessionId),
    refresh,
    device: known?.value ?? app.knownDevices.issue(user),
  };
}
