// The Bot API client (decisions §14), shared by the bot, its reminders and the channel follow
// checks: grammY's Api against TELEGRAM_API_BASE, with a timeout of our own (grammY's default is
// minutes) so a Telegram that does not answer never holds a request or the worker. `app.telegram`
// is null while Telegram is not configured: the feature is off.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Api } from 'grammy';
import type { TelegramSettings } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    telegram: { settings: TelegramSettings; api: Api } | null;
  }
}

/** grammY client options for these settings (the bot in plugins/telegram-bot.ts uses the same). */
export const botClientOptions = (settings: TelegramSettings) => ({
  apiRoot: settings.apiBase,
  timeoutSeconds: settings.timeoutMs / 1000,
});

export default fp(
  async function telegram(app: FastifyInstance) {
    const settings = app.config.telegram;
    app.decorate(
      'telegram',
      settings ? { settings, api: new Api(settings.botToken, botClientOptions(settings)) } : null,
    );
  },
  { name: 'telegram', dependencies: ['config'] },
);
