import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigSchema } from '@shared/api/config';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/config/', { schema: { tags: ['config'], response: { 200: publicConfigSchema } } }, async () => ({
    app_name: app.config.appName,
    google_client_id: app.config.googleClientId,
    google_code_flow: Boolean(app.config.googleClientId && app.config.googleClientSecret),
    vapid_public_key: app.config.vapid.publicKey,
    mining_session_seconds: app.config.miningSessionSeconds,
    payments_available: app.payments.methods.length > 0,
  }));
};
export default routes;
