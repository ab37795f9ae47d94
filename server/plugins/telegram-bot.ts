// The bot (decisions §14): grammY's Bot on the same client options as `app.telegram`, fed by the
// webhook (routes/telegram/webhook.ts). `/start` records the chat (reminders need a chat the player
// opened; a new /start lifts an earlier block) and answers with a button that opens the Mini App,
// `/start ref_<refCode>` opening it at the referral link the web uses (`/?refCode=…`), which the
// app keeps and sends with the first username as `referral_link`; the chat's menu button is then
// set in the player's language (the bot's default, set by `telegram setup`, is English). Other
// private messages get a short help. grammY asks getMe before the first update only (not at
// start-up), so neither start-up nor /readyz waits on Telegram. `app.telegramBot` is null while
// Telegram is not configured.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Bot, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import { referralLink } from '../services/users';
import { type BotLocale, botLocaleOf, helpText, menuButtonText, startText } from '../services/telegram-texts';
import { botClientOptions } from './telegram';

declare module 'fastify' {
  interface FastifyInstance {
    telegramBot: { handleUpdate(update: Update): Promise<void> } | null;
  }
}

/** The payload of `/start ref_<refCode>`: a referral code as the app's links carry it. */
const REFERRAL_START = /^ref_([A-Za-z0-9_-]{1,60})$/;

const webAppKeyboard = (text: string, url: string) => ({ inline_keyboard: [[{ text, web_app: { url } }]] });

/**
 * The chat's own menu button: the Mini App under a Russian label for a Russian Telegram; the bot's
 * default for anyone else, so a player whose Telegram changed language since gets English back.
 */
const chatMenuButton = (locale: BotLocale, appUrl: string) =>
  locale === 'en'
    ? { type: 'default' as const }
    : { type: 'web_app' as const, text: menuButtonText(locale), web_app: { url: `${appUrl}/` } };

export default fp(
  async function telegramBot(app: FastifyInstance) {
    const telegram = app.telegram;
    if (!telegram) {
      app.decorate('telegramBot', null);
      return;
    }
    const { settings } = telegram;
    const { appUrl, appName } = app.config;
    const bot = new Bot(settings.botToken, { client: botClientOptions(settings) });

    bot.command('start', async (ctx: Context) => {
      const from = ctx.from;
      const chat = ctx.chat;
      // Reminders go to the player's own chat with the bot, never to a group it was added to.
      if (!from || !chat || chat.type !== 'private') return;
      const now = Date.now();
      await app.db
        .insertInto('telegram_chats')
        .values({ telegram_id: String(from.id), chat_id: String(chat.id), started_at: now, blocked_at: null })
        .onConflict((oc) =>
          oc.column('telegram_id').doUpdateSet({ chat_id: String(chat.id), started_at: now, blocked_at: null }),
        )
        .execute();
      const code = REFERRAL_START.exec(typeof ctx.match === 'string' ? ctx.match.trim() : '')?.[1];
      const url = code ? referralLink(appUrl, code) : `${appUrl}/`;
      const locale = botLocaleOf(from.language_code);
      const { text, button } = startText(locale, appName, code !== undefined);
      await ctx.reply(text, { reply_markup: webAppKeyboard(button, url) });
      // After the answer, which the player is waiting for; a refusal leaves the default button.
      try {
        await ctx.api.setChatMenuButton({ chat_id: chat.id, menu_button: chatMenuButton(locale, appUrl) });
      } catch (err) {
        app.log.warn({ err, chatId: chat.id }, 'could not set the chat menu button');
      }
    });

    bot.on('message', async (ctx) => {
      if (ctx.chat.type !== 'private') return;
      const { text, button } = helpText(botLocaleOf(ctx.from?.language_code), appName);
      await ctx.reply(text, { reply_markup: webAppKeyboard(button, `${appUrl}/`) });
    });

    let initializing: Promise<void> | null = null;
    /** getMe once, on the first update; a Telegram that does not answer fails this update only. */
    const initialized = async () => {
      if (bot.isInited()) return;
      initializing ??= bot.init(AbortSignal.timeout(settings.timeoutMs)).finally(() => {
        initializing = null;
      });
      await initializing;
    };

    app.decorate('telegramBot', {
      async handleUpdate(update: Update) {
        await initialized();
        await bot.handleUpdate(update);
      },
    });
  },
  { name: 'telegram-bot', dependencies: ['config', 'db', 'telegram'] },
);
