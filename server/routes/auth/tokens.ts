// Refresh and logout (decisions §4, §13): `/auth/refresh/` answers a new access token of the same
// session (the refresh token is not rotated); `/auth/logout/` ends the session of the refresh token
// it is given, so that session's access token stops working too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accessSchema, detailSchema, refreshRequestSchema } from '@shared/api/auth';
import { notAuthenticated } from '../../lib/errors';
import { hashToken } from '../../services/action-tokens';
import { bindRefreshToken, refreshTokenOwner } from '../../services/refresh-tokens';
import { endSession, openSession } from '../../services/sessions';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/refresh/',
    {
      config: { signIn: true, answers: { 401: ['token_not_valid'] } },
      schema: { tags: ['auth'], body: refreshRequestSchema, response: { 200: accessSchema } },
    },
    async (request) => {
      const owner = await refreshTokenOwner(app.db, request.body.refresh);
      if (!owner) throw notAuthenticated('Token is invalid or expired');
      let sessionId = owner.sessionId;
      if (sessionId === null) {
        // A token from before sessions existed: from now on it renews a session of its own.
        sessionId = await app.db.transaction().execute(async (trx) => {
          const id = await openSession(trx, owner.userId, { userAgent: request.headers['user-agent'], ip: request.ip });
          await bindRefreshToken(trx, owner.id, id);
          return id;
        });
      }
      return { access: app.issueAccess(owner.userId, sessionId) };
    },
  );

  app.post(
    '/auth/logout/',
    {
      config: { answers: { 401: ['token_not_valid'] } },
      schema: { tags: ['auth'], body: refreshRequestSchema, response: { 200: detailSchema } },
    },
    async (request) => {
      // Logging out twice is still logged out; a token this server never issued is refused.
      const row = await app.db
        .selectFrom('refresh_tokens')
        .select(['id', 'user_id', 'session_id', 'revoked_at'])
        .where('token_hash', '=', hashToken(request.body.refresh))
        .executeTakeFirst();
      if (!row) throw notAuthenticated('Token is invalid or expired');
      const now = Date.now();
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now })
          .where('id', '=', row.id)
          .where('revoked_at', 'is', null)
          .execute();
        if (row.session_id !== null) await endSession(trx, Number(row.user_id), Number(row.session_id), now);
      });
      return { detail: 'Logged out.' };
    },
  );
};
export default routes;
