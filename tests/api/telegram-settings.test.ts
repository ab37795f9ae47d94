// Telegram and Discord settings (decisions §14): they go together or not at all, the bot never runs
// without its webhook secret, the tokens travel only over https in production, and neither
// Telegram nor Discord is something the server needs in order to start or to be ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, testDialects } from '../helpers/test-app';

const token = '123456789:AAabcdefghijklmnopqrstuvwxyz0123456';
const bot = {
  TELEGRAM_BOT_TOKEN: token,
  TELEGRAM_BOT_USERNAME: 'pxt_bot',
  TELEGRAM_WEBHOOK_SECRET: 'a-secret-of-twenty-chars',
};
const discord = { DISCORD_CLIENT_ID: '111', DISCORD_CLIENT_SECRET: 'shh', DISCORD_GUILD_ID: '222' };
const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/pxt-telegram-settings', STATIC_DIR: '' };
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('Telegram and Discord settings', () => {
  it('are off when unset, and the public config says so', () => {
    const config = loadConfig(base);
    expect(config.telegram).toBeNull();
    expect(config.discord).toBeNull();
  });

  it('take the bot with its username and secret; the bot id is the token’s first part', () => {
    const config = loadConfig({ ...base, ...bot, TELEGRAM_BOT_USERNAME: '@pxt_bot', TELEGRAM_CHANNEL_RU: '@pxt_ru' });
    expect(config.telegram).toMatchObject({
      botId: 123456789,
      botUsername: 'pxt_bot',
      apiBase: 'https://api.telegram.org',
      channels: { ru: '@pxt_ru', en: null },
    });
  });

  it.each([
    [{ TELEGRAM_BOT_TOKEN: token }, /go together/],
    [{ TELEGRAM_BOT_USERNAME: 'pxt_bot' }, /go together/],
    [{ ...bot, TELEGRAM_WEBHOOK_SECRET: '' }, /TELEGRAM_WEBHOOK_SECRET is required/],
    [{ ...bot, TELEGRAM_WEBHOOK_SECRET: 'short' }, /TELEGRAM_WEBHOOK_SECRET is required/],
    [{ ...bot, TELEGRAM_WEBHOOK_SECRET: 'has spaces in it, twenty+' }, /TELEGRAM_WEBHOOK_SECRET is required/],
    [{ ...bot, TELEGRAM_BOT_TOKEN: 'not-a-token' }, /TELEGRAM_BOT_TOKEN must look like/],
    [{ ...bot, TELEGRAM_BOT_USERNAME: 'a b' }, /TELEGRAM_BOT_USERNAME must be/],
    [{ ...bot, TELEGRAM_CHANNEL_EN: 'https://t.me/pxt' }, /TELEGRAM_CHANNEL_EN must be/],
    [{ TELEGRAM_CHANNEL_RU: '@pxt_ru' }, /need TELEGRAM_BOT_TOKEN/],
    [{ ...bot, TELEGRAM_API_BASE: 'ftp://api' }, /TELEGRAM_API_BASE must be https/],
    [{ ...bot, NODE_ENV: 'production', TELEGRAM_API_BASE: 'http://api.example' }, /https in production/],
    [{ DISCORD_CLIENT_ID: '111' }, /go together/],
    [{ ...discord, DISCORD_GUILD_ID: 'guild' }, /DISCORD_GUILD_ID must be/],
    [{ ...discord, NODE_ENV: 'production', DISCORD_API_BASE: 'http://discord.example' }, /https in production/],
  ])('refuse %o with one line', (env, message) => {
    const text = refusal({ MAIL_TRANSPORT: 'outbox', APP_URL: 'https://pxt.example', ...env });
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
    // The refusal names the setting, never its secret value.
    expect(text).not.toContain(token.split(':')[1]);
  });
});

describe.each(testDialects())('with Telegram configured, on %s', (dialect) => {
  let standIn: TelegramStandIn;
  beforeAll(async () => {
    standIn = await startTelegramStandIn({ channels: { ru: '@pxt_ru' } });
  });
  afterAll(() => standIn.close());

  it('starts and is ready while Telegram hangs, without calling it', async () => {
    standIn.hang = true;
    try {
      const t = await createTestApp(dialect, { ...standIn.env, ...discord, DISCORD_API_BASE: 'http://127.0.0.1:9' });
      try {
        const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(standIn.calls).toEqual([]);
        const config = await t.app.inject({ method: 'GET', url: '/api/v1/config/' });
        expect(config.json()).toMatchObject({
          telegram: { bot_username: standIn.botUsername, bot_id: Number(standIn.botToken.split(':')[0]) },
          verified_follows: { telegram_ru: true, telegram_eng: false, discord: true },
        });
      } finally {
        await t.close();
      }
    } finally {
      standIn.hang = false;
    }
  });

  it('lets Telegram’s web client frame the app and allows the Login Widget; without Telegram, neither', async () => {
    const on = await createTestApp(dialect, standIn.env);
    const off = await createTestApp(dialect);
    try {
      const withTelegram = await on.app.inject({ method: 'GET', url: '/api/v1/config/' });
      const csp = String(withTelegram.headers['content-security-policy']);
      expect(csp).toMatch(/frame-ancestors 'self' https:\/\/web\.telegram\.org/);
      expect(csp).toContain('https://telegram.org/js/telegram-widget.js');
      expect(csp).toMatch(/frame-src [^;]*https:\/\/oauth\.telegram\.org/);
      expect(withTelegram.headers['x-frame-options']).toBeUndefined();

      const without = await off.app.inject({ method: 'GET', url: '/api/v1/config/' });
      const plain = String(without.headers['content-security-policy']);
      expect(plain).toContain("frame-ancestors 'self';");
      expect(plain).not.toContain('telegram');
      expect(without.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(without.json()).toMatchObject({
        telegram: null,
        verified_follows: { telegram_ru: false, telegram_eng: false, discord: false },
      });
    } finally {
      await on.close();
      await off.close();
    }
  });
});
