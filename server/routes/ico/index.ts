// The token-sale page's data, behind the player's `ico` flag (spec: /ico needs the iso flag).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { icoSchema } from '@shared/api/ico';
import { forbidden } from '../../lib/errors';
import { icoStatus } from '../../services/ico';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ico/',
    {
      onRequest: app.requireUser,
      config: { answers: { 403: ['ico_not_enabled'] } },
      schema: { tags: ['ico'], response: { 200: icoSchema } },
    },
    async (request) => {
      const user = await app.db.selectFrom('users').select('ico').where('id', '=', request.userId!).executeTakeFirst();
      if (!user || Number(user.ico) !== 1)
        throw forbidden('The token sale is not open for your account.', 'ico_not_enabled');
      return icoStatus(app.config.ico);
    },
  );
};
export default routes;
