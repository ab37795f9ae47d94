import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigSchema } from '@shared/api/config';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { telegram } = app.config;
  app.get('/config/', { schema: { tags: ['config'], response: { 200: publicConfigSchema } } }, async () => ({
    app_name: app.config.appName,
    google_client_id: app.config.googleClientId,
    google_code_flow: Boolean(app.config.googleClientId && app.config.googleClientSecret),
    vapid_public_key: app.config.vapid.publicKey,
    mining_session_seconds: app.config.miningSessionSeconds,
    payments_available: app.payments.methods.length > 0,
    telegram: telegram ? { bot_username: telegram.botUsername, bot_id: telegram.botId } : null,
    verified_follows: {
      telegram_ru: Boolean(telegram?.channels.ru),
      telegram_eng: Boolean(telegram?.channels.en),
      discord: app.config.discord !== null,
    },
  }));
};
export default routes;
