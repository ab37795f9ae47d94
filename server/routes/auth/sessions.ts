// The player's sessions (decisions §13): list them, end one, or end every other one. Ending a
// session refuses its access and refresh tokens at once, on every process.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailSchema, othersSignedOutSchema, sessionParamsSchema, sessionsSchema } from '@shared/api/auth';
import { notFound } from '../../lib/errors';
import { endSession, listSessions, signOutOthers } from '../../services/sessions';
import { SECURITY } from './common';
import { isoTime } from '../../lib/iso-time';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/sessions/',
    { onRequest: app.requireUser, schema: { tags: ['auth'], security: SECURITY, response: { 200: sessionsSchema } } },
    async (request) => {
      const rows = await listSessions(app.db, request.userId!);
      return {
        sessions: rows.map((s) => ({
          id: Number(s.id),
          device: s.device,
          address: s.address,
          created_at: isoTime(s.created_at),
          last_used_at: isoTime(s.last_used_at),
          current: Number(s.id) === request.sessionId,
        })),
      };
    },
  );

  app.delete(
    '/auth/sessions/:id/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['auth'], security: SECURITY, params: sessionParamsSchema, response: { 200: detailSchema } },
    },
    async (request) => {
      const ended = await app.db.transaction().execute((trx) => endSession(trx, request.userId!, request.params.id));
      if (!ended) throw notFound('No such session.', 'session_not_found');
      return { detail: 'The session has ended.' };
    },
  );

  app.post(
    '/auth/logout-all/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['auth'], security: SECURITY, response: { 200: othersSignedOutSchema } },
    },
    async (request) => {
      const device = await app.db
        .transaction()
        .execute((trx) => signOutOthers(trx, app.knownDevices, request.userId!, request.sessionId));
      return { detail: 'Every other session has ended.', device };
    },
  );
};
export default routes;
