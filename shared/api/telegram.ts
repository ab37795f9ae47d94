// The bot's calls (decisions §14): the webhook Telegram posts updates to, and the /profile switch
// for the bot's claim reminders.
import { z } from 'zod';

/** The header Telegram sends with every update, equal to the secret given to setWebhook. */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

const chatSchema = z.looseObject({ id: z.number().int(), type: z.string() });
const userSchema = z.looseObject({
  id: z.number().int(),
  language_code: z.string().optional(),
});

/**
 * An Update as Telegram sends it (https://core.telegram.org/bots/api#update): checked as far as
 * the bot reads it (a message's chat, sender and text), everything else passed on as it came.
 */
export const telegramUpdateSchema = z
  .looseObject({
    update_id: z.number().int(),
    message: z
      .looseObject({
        message_id: z.number().int(),
        chat: chatSchema,
        from: userSchema.optional(),
        text: z.string().optional(),
      })
      .optional(),
  })
  .meta({
    description: 'A Telegram Update (https://core.telegram.org/bots/api#update).',
    example: { update_id: 1, message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: '/start' } },
  });

export const telegramWebhookResponseSchema = z.object({ ok: z.literal(true) });

export const telegramRemindersSchema = z.object({
  /** The player's account has Telegram linked. */
  linked: z.boolean(),
  /** Reminders can reach the player: Telegram linked, the bot started and not blocked. */
  available: z.boolean(),
  /** The player's switch (on by default). */
  enabled: z.boolean(),
  /** Without the @: where to start the bot (`https://t.me/<bot_username>?start=hi`). */
  bot_username: z.string(),
});
export type TelegramReminders = z.infer<typeof telegramRemindersSchema>;

export const telegramRemindersRequestSchema = z.object({ enabled: z.boolean() });
