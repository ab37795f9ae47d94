// Refresh and logout (decisions §4): `/auth/refresh/` answers a new access token only (the refresh
// token is not rotated); `/auth/logout/` revokes the refresh token it is given.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accessSchema, detailSchema, refreshRequestSchema } from '@shared/api/auth';
import { notAuthenticated } from '../../lib/errors';
import { revokeRefreshToken, userOfRefreshToken } from '../../services/refresh-tokens';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/refresh/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: refreshRequestSchema, response: { 200: accessSchema } } },
    async (request) => {
      const userId = await userOfRefreshToken(app.db, request.body.refresh);
      if (userId === null) throw notAuthenticated('Token is invalid or expired');
      return { access: app.issueAccess(userId) };
    },
  );

  app.post(
    '/auth/logout/',
    { schema: { tags: ['auth'], body: refreshRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      // Logging out twice is still logged out; a token this server never issued is refused.
      const result = await revokeRefreshToken(app.db, request.body.refresh);
      if (result === 'unknown') throw notAuthenticated('Token is invalid or expired');
      return { detail: 'Logged out.' };
    },
  );
};
export default routes;
