// The /profile switch for the bot's claim reminders (decisions §14): GET tells whether reminders can
// reach the player (Telegram linked, the bot started and not blocked) and whether they are on; PUT
// turns them on or off. 404 while the server has no bot.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { telegramRemindersRequestSchema, telegramRemindersSchema, type TelegramReminders } from '@shared/api/telegram';
import type { Db } from '../../db/schema';
import { notAuthenticated, notFound } from '../../lib/errors';

async function remindersOf(db: Db, userId: number, botUsername: string): Promise<TelegramReminders> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('telegram_chats as c', 'c.telegram_id', 'u.telegram_id')
    .select(['u.telegram_id', 'u.telegram_reminders', 'c.started_at', 'c.blocked_at'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notAuthenticated();
  const linked = row.telegram_id !== null;
  return {
    linked,
    available: linked && row.started_at !== null && row.blocked_at === null,
    enabled: Number(row.telegram_reminders) === 1,
    bot_username: botUsername,
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const botOrRefuse = () => {
    if (!app.telegram) throw notFound('The Telegram bot is not configured');
    return app.telegram.settings.botUsername;
  };
  const answers = { 404: ['not_found'] } as const;

  app.get(
    '/telegram/reminders/',
    {
      onRequest: app.requireUser,
      config: { answers },
      schema: { tags: ['telegram'], response: { 200: telegramRemindersSchema } },
    },
    async (request) => remindersOf(app.db, request.userId!, botOrRefuse()),
  );

  app.put(
    '/telegram/reminders/',
    {
      onRequest: app.requireUser,
      config: { answers },
      schema: { tags: ['telegram'], body: telegramRemindersRequestSchema, response: { 200: telegramRemindersSchema } },
    },
    async (request) => {
      const botUsername = botOrRefuse();
      await app.db
        .updateTable('users')
        .set({ telegram_reminders: request.body.enabled ? 1 : 0 })
        .where('id', '=', request.userId!)
        .execute();
      return remindersOf(app.db, request.userId!, botUsername);
    },
  );
};
export default routes;
