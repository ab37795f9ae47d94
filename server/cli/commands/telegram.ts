// `telegram setup`: points the bot at this server through the Bot API (decisions §14) — the webhook
// (APP_URL/api/v1/telegram/webhook/ with TELEGRAM_WEBHOOK_SECRET, message updates only, updates
// already waiting kept), the chat's menu button opening the Mini App at APP_URL, and the /start
// command in the command list (English, and Russian for Russian Telegram apps). Safe to run again:
// each call sets, nothing is added twice.
import { Api, GrammyError, HttpError } from 'grammy';
import { API_BASE } from '@shared/constants';
import { botClientOptions } from '../../plugins/telegram';
import { menuButtonText } from '../../services/telegram-texts';
import { CliError, type Command, expectArgs } from '../context';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Telegram sends updates and opens Mini Apps over https only; a loopback http address is for tests against a stand-in. */
function checkedAppUrl(appUrl: string, production: boolean): string {
  const url = new URL(appUrl);
  if (url.protocol === 'https:') return appUrl;
  if (!production && url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return appUrl;
  throw new CliError(`APP_URL must be https:// for Telegram (it refuses http webhooks and Mini Apps), got "${appUrl}"`);
}

export const telegramCommand: Command = {
  name: 'telegram',
  usage: ['telegram setup'],
  summary: "set the bot's webhook, menu button (opens the Mini App) and /start command through the Bot API",
  async run(ctx, args) {
    expectArgs(this, args, 1);
    if (args[0] !== 'setup')
      throw new CliError(`unknown telegram command "${args[0]}"; usage: npm run admin -- telegram setup`);
    const settings = ctx.config.telegram;
    if (!settings)
      throw new CliError(
        'Telegram is not configured: set TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET (see docs/operating.md)',
      );
    const appUrl = checkedAppUrl(ctx.config.appUrl, ctx.config.production);
    const api = new Api(settings.botToken, botClientOptions(settings));
    const webhook = `${appUrl}${API_BASE}/telegram/webhook/`;
    try {
      await api.setWebhook(webhook, {
        secret_token: settings.webhookSecret,
        allowed_updates: ['message'],
        drop_pending_updates: false,
      });
      ctx.out(`webhook: ${webhook} (secret header set, updates: message)`);
      const text = menuButtonText('en');
      await api.setChatMenuButton({ menu_button: { type: 'web_app', text, web_app: { url: `${appUrl}/` } } });
      ctx.out(`menu button: "${text}" opens ${appUrl}/ (a Russian Telegram's chat gets its own at /start)`);
      await api.setMyCommands([{ command: 'start', description: `Open ${ctx.config.appName}` }]);
      await api.setMyCommands([{ command: 'start', description: `Открыть ${ctx.config.appName}` }], {
        language_code: 'ru',
      });
      ctx.out('commands: /start (en, ru)');
      ctx.out(`bot: @${settings.botUsername}`);
    } catch (err) {
      if (err instanceof GrammyError) throw new CliError(`the Bot API refused ${err.method}: ${err.description}`);
      if (err instanceof HttpError)
        throw new CliError(`the Bot API at ${settings.apiBase} did not answer: ${err.message}`);
      throw err;
    }
  },
};
