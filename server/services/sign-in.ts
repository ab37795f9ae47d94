// What every sign-in does (e-mail, wallet, Google, a confirmation link): open a session (decisions
// §13), answer its access and refresh tokens and the browser's known-device string for the account,
// and mail a notice when the browser brought no device string of this account.
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

/** Opens the session inside the caller's transaction; the notice goes out only if it commits and answers. */
export async function startSession(
  app: FastifyInstance,
  trx: Tx,
  userId: number,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedIn> {
  const sessionId = await openSession(trx, userId, { userAgent: request.headers['user-agent'], ip: request.ip });
  const refresh = await issueRefreshToken(trx, userId, sessionId);
  const known = app.knownDevices.of(request, userId);
  // Mailed after the answer, and only when it succeeded: a rolled-back sign-in signed nobody in.
  if (!known)
    reply.raw.once(
      'finish',
      () => reply.statusCode < 300 && noticeAccount(app, request, reply, userId, { kind: 'new_device' }),
    );
  await trx
    .updateTable('users')
    .set({ locale: localeOf(request) })
    .where('id', '=', userId)
    .execute();
  return {
    access: app.issueAccess(userId, sessionId),
    refresh,
    device: known?.value ?? app.knownDevices.issue(userId),
  };
}
