// The bot's webhook (decisions §14) against the Bot API stand-in: only Telegram's secret header gets
// an update handled; garbage never makes a 5xx; /start answers a button that opens the Mini App,
// records the chat, and `/start ref_<code>` carries the referral into the sign-up.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referralLink } from '../../server/services/users';
import { API, bearer, otherIp, quickUser, walletLogin } from '../helpers/accounts';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const WEBHOOK = `${API}/telegram/webhook/`;
let updateId = 0;
let telegramId = 700_000_000 + Math.floor(Math.random() * 100_000_000);

interface From {
  id: number;
  language_code?: string;
}
const newFrom = (language_code = 'en'): From => ({ id: ++telegramId, language_code });

/** A message update as Telegram sends it (commands carry their bot_command entity). */
function messageUpdate(from: From, text: string, chatType = 'private') {
  const command = /^\/\S+/.exec(text)?.[0];
  return {
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat:
        chatType === 'private'
          ? { id: from.id, type: 'private', first_name: 'Ann' }
          : { id: -from.id, type: chatType, title: 'Group' },
      from: {
        id: from.id,
        is_bot: false,
        first_name: 'Ann',
        ...(from.language_code ? { language_code: from.language_code } : {}),
      },
      text,
      ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] } : {}),
    },
  };
}

describe.each(testDialects())('telegram webhook on %s', (dialect) => {
  let tg: TelegramStandIn;
  let t: TestApp;

  beforeAll(async () => {
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, tg.env);
  });
  afterAll(async () => {
    await t?.close();
    await tg?.close();
  });

  const post = (
    payload: unknown,
    headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': tg.webhookSecret },
    url = WEBHOOK,
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const chatRow = (id: number) =>
    t.app.db.selectFrom('telegram_chats').selectAll().where('telegram_id', '=', String(id)).executeTakeFirst();
  const sentTo = (id: number) => tg.callsOf('sendMessage').filter((c) => Number(c.body.chat_id) === id);
  const button = (call: { body: Record<string, unknown> }) =>
    (call.body.reply_markup as { inline_keyboard: { text: string; web_app?: { url: string } }[][] })
      .inline_keyboard[0][0];

  it('asks Telegram who the bot is only when the first update comes, not at start-up', async () => {
    expect(tg.callsOf('getMe')).toHaveLength(0);
    const from = newFrom();
    expect((await post(messageUpdate(from, '/start'))).statusCode).toBe(200);
    expect((await post(messageUpdate(from, '/start'))).statusCode).toBe(200);
    expect(tg.callsOf('getMe')).toHaveLength(1);
    expect(sentTo(from.id)).toHaveLength(2);
  });

  it('refuses every update without the secret header with 401 and does nothing', async () => {
    const from = newFrom();
    const update = messageUpdate(from, '/start');
    const secret = tg.webhookSecret;
    const sameLength = `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
    const attempts: [Record<string, string>, string?][] = [
      [{}],
      [{ 'x-telegram-bot-api-secret-token': '' }],
      [{ 'x-telegram-bot-api-secret-token': 'wrong' }],
      [{ 'x-telegram-bot-api-secret-token': sameLength }],
      [
        {
          'x-telegram-bot-api-secret-token':
            secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase(),
        },
      ],
      [{ 'x-telegram-bot-api-secret-token': `${secret} ` }],
      [{ 'x-telegram-bot-api-secret-token': `${secret}${secret}` }],
      [{ 'x-telegram-bot-api-secret': secret }],
      [{ authorization: `Bearer ${secret}` }],
      [{ 'x-telegram-bot-api-secret-token': secret.slice(0, 16) }],
      [{}, `${WEBHOOK}?secret_token=${secret}`],
      [{}, `${WEBHOOK}?x-telegram-bot-api-secret-token=${secret}`],
    ];
    for (const [headers, url] of attempts) {
      const res = await post(update, headers, url);
      expect(res.statusCode, JSON.stringify(headers) + (url ?? '')).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_webhook_secret' });
      // Refused before the body is read: garbage without the secret is a 401 too.
      expect((await post('{', headers, url)).statusCode).toBe(401);
    }
    expect(sentTo(from.id)).toEqual([]);
    expect(await chatRow(from.id)).toBeUndefined();
  });

  it('answers 400 to bodies that are not updates, never 5xx, and does nothing', async () => {
    const from = newFrom();
    const before = tg.calls.length;
    const garbage: string[] = [
      '[]',
      '"update"',
      'null',
      '42',
      'true',
      '{',
      '',
      '{}',
      '{"update_id":"1"}',
      '{"update_id":1.5}',
      `{"update_id":1,"message":"/start"}`,
      `{"update_id":1,"message":{"message_id":1,"chat":null,"text":"/start"}}`,
      `{"update_id":1,"message":{"message_id":1,"chat":{"id":"${from.id}","type":"private"},"text":"/start"}}`,
      `{"update_id":1,"message":{"message_id":1,"chat":{"id":${from.id},"type":"private"},"from":{"id":${from.id},"language_code":5},"text":"/start"}}`,
      `{"update_id":1,"message":{"message_id":1,"chat":{"id":${from.id},"type":"private"},"text":["/start"]}}`,
      '['.repeat(5000) + ']'.repeat(5000),
    ];
    for (const body of garbage) {
      const res = await post(body);
      expect(res.statusCode, body.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, body.slice(0, 80)).toBeLessThan(500);
    }
    for (const body of ['[]', '"update"', 'null', '42', 'true', '{}'])
      expect((await post(body)).statusCode, body).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: { 'content-type': 'text/plain', 'x-telegram-bot-api-secret-token': tg.webhookSecret },
      payload: 'update_id=1',
    });
    expect(notJson.statusCode, notJson.body).toBe(400);
    expect(tg.calls.slice(before).filter((c) => c.method !== 'getMe')).toEqual([]);
    expect(await chatRow(from.id)).toBeUndefined();
  });

  it('accepts updates it does not handle (other kinds, a message without text or sender) and sends nothing', async () => {
    const before = tg.callsOf('sendMessage').length;
    const others = [
      {
        update_id: ++updateId,
        edited_message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: 'x' },
      },
      { update_id: ++updateId, my_chat_member: { chat: { id: 1, type: 'private' } } },
      { update_id: ++updateId, message: { message_id: 1, date: 0, chat: { id: -5, type: 'channel' } } },
      messageUpdate(newFrom(), '/start', 'group'),
      messageUpdate(newFrom(), 'hello', 'supergroup'),
    ];
    for (const u of others) {
      const res = await post(u);
      expect(res.statusCode, JSON.stringify(u)).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    expect(tg.callsOf('sendMessage')).toHaveLength(before);
  });

  it('/start answers with a web_app button opening the app, in English, and records the chat', async () => {
    const from = newFrom('en-US');
    const before = Date.now();
    const res = await post(messageUpdate(from, '/start'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [call] = sentTo(from.id);
    expect(call.body.chat_id).toBe(from.id);
    expect(call.body.text).toMatch(/Welcome to PXT Companion/);
    expect(button(call)).toEqual({ text: 'Play', web_app: { url: 'http://app.test/' } });
    const chat = await chatRow(from.id);
    expect(chat).toMatchObject({ chat_id: String(from.id), blocked_at: null });
    expect(Number(chat!.started_at)).toBeGreaterThanOrEqual(before);
  });

  it('speaks Russian to a Russian Telegram, English to everyone else', async () => {
    const ru = newFrom('ru');
    const uk = newFrom('uk');
    const none = newFrom('');
    for (const f of [ru, uk, none]) expect((await post(messageUpdate(f, '/start'))).statusCode).toBe(200);
    expect(sentTo(ru.id)[0].body.text).toMatch(/Добро пожаловать/);
    expect(button(sentTo(ru.id)[0]).text).toBe('Играть');
    expect(sentTo(uk.id)[0].body.text).toMatch(/Welcome/);
    expect(sentTo(none.id)[0].body.text).toMatch(/Welcome/);
  });

  it("sets the chat's menu button in the player's language: the Mini App as «Играть» for a Russian Telegram, the bot's default otherwise", async () => {
    const ru = newFrom('ru-RU');
    const uk = newFrom('uk');
    for (const f of [ru, uk]) expect((await post(messageUpdate(f, '/start ref_abc'))).statusCode).toBe(200);
    const menuOf = (id: number) =>
      tg
        .callsOf('setChatMenuButton')
        .filter((c) => Number(c.body.chat_id) === id)
        .map((c) => c.body.menu_button);
    // The app's own address, not the referral link of this /start: the button stays in the chat.
    expect(menuOf(ru.id)).toEqual([{ type: 'web_app', text: 'Играть', web_app: { url: 'http://app.test/' } }]);
    expect(menuOf(uk.id)).toEqual([{ type: 'default' }]);
    // After the answer, which the player waits for.
    const order = (id: number) => tg.calls.filter((c) => Number(c.body.chat_id) === id).map((c) => c.method);
    expect(order(ru.id)).toEqual(['sendMessage', 'setChatMenuButton']);
    // A Telegram switched to English since: its chat gets the default button back.
    ru.language_code = 'en';
    expect((await post(messageUpdate(ru, '/start'))).statusCode).toBe(200);
    expect(menuOf(ru.id).at(-1)).toEqual({ type: 'default' });
  });

  it('answers /start and records the chat when Telegram refuses the menu button', async () => {
    const from = newFrom('ru');
    tg.tooManyRequests('setChatMenuButton', 1);
    const res = await post(messageUpdate(from, '/start'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(sentTo(from.id)[0].body.text).toMatch(/Добро пожаловать/);
    expect(tg.callsOf('setChatMenuButton').filter((c) => Number(c.body.chat_id) === from.id)).toHaveLength(1);
    expect(await chatRow(from.id)).toMatchObject({ chat_id: String(from.id), blocked_at: null });
  });

  it('answers other private messages with a short help and the button, recording nothing', async () => {
    const from = newFrom('ru');
    expect((await post(messageUpdate(from, 'привет'))).statusCode).toBe(200);
    const [call] = sentTo(from.id);
    expect(call.body.text).toMatch(/\/start/);
    expect(button(call).web_app).toEqual({ url: 'http://app.test/' });
    expect(await chatRow(from.id)).toBeUndefined();
  });

  it('a new /start lifts an earlier block and follows a new chat', async () => {
    const from = newFrom();
    await t.app.db
      .insertInto('telegram_chats')
      .values({ telegram_id: String(from.id), chat_id: '12345', started_at: 1, blocked_at: 2 })
      .execute();
    expect((await post(messageUpdate(from, '/start'))).statusCode).toBe(200);
    expect(await chatRow(from.id)).toMatchObject({ chat_id: String(from.id), blocked_at: null });
    expect(Number((await chatRow(from.id))!.started_at)).toBeGreaterThan(2);
  });

  it('/start ref_<code> opens the app at the referral link, and the player who signs up there gets the referrer', async () => {
    const referrer = await quickUser(t, { username: `ref_${updateId}` });
    const code = referrer.user.referral_code;
    const from = newFrom();
    expect((await post(messageUpdate(from, `/start ref_${code}`))).statusCode).toBe(200);
    const [call] = sentTo(from.id);
    const url = button(call).web_app!.url;
    expect(url).toBe(referralLink('http://app.test', code));
    expect(call.body.text).toMatch(/invited/);

    // The Mini App opens at that URL and keeps it as the web keeps a referral link; the new player
    // (here signing up with a wallet) sends it with the first username.
    const player = await walletLogin(t);
    const username = `tg_${updateId}`;
    const done = await t.app.inject({
      method: 'PATCH',
      url: `${API}/auth/complete-registration/`,
      headers: bearer(player.access),
      payload: { username, referral_link: url },
      remoteAddress: otherIp(),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().referrer_recorded).toBe(true);
    const row = await t.app.db
      .selectFrom('users')
      .select('referrer_id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    expect(Number(row.referrer_id)).toBe(referrer.user.id);
  });

  it('ignores a start parameter that is not a referral', async () => {
    for (const param of ['hi', 'ref_', 'ref_a b', `ref_${'x'.repeat(61)}`, 'ref_<script>']) {
      const from = newFrom();
      expect((await post(messageUpdate(from, `/start ${param}`))).statusCode).toBe(200);
      expect(button(sentTo(from.id)[0]).web_app).toEqual({ url: 'http://app.test/' });
    }
  });
});

describe.each(testDialects())('telegram webhook limits and absence on %s', (dialect) => {
  let tg: TelegramStandIn;

  beforeAll(async () => {
    tg = await startTelegramStandIn();
  });
  afterAll(() => tg?.close());

  it('is not found while the server has no bot', async () => {
    const t = await createTestApp(dialect);
    try {
      const res: LightMyRequestResponse = await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': tg.webhookSecret },
        payload: JSON.stringify(messageUpdate(newFrom(), '/start')),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(t.app.telegramBot).toBeNull();
      expect(t.app.telegramReminders).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('starts and is ready while Telegram is down', async () => {
    tg.down = true;
    try {
      const t = await createTestApp(dialect, tg.env);
      try {
        expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        expect(t.app.telegramBot).not.toBeNull();
      } finally {
        await t.close();
      }
    } finally {
      tg.down = false;
    }
  });

  it("does not count Telegram's updates against its address, but counts callers without the secret", async () => {
    // Anonymous calls limited to 6 a minute per address here.
    const t = await createTestApp(dialect, { ...tg.env, RATE_LIMITS: 'on', RATE_LIMIT_FACTOR: '0.02' });
    try {
      const send = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: WEBHOOK,
          headers: { 'content-type': 'application/json', ...headers },
          // Group messages: handled and ignored, nothing sent.
          payload: JSON.stringify(messageUpdate(newFrom(), 'hello', 'group')),
          remoteAddress: '149.154.167.220',
        });
      const legit = [];
      for (let i = 0; i < 30; i++)
        legit.push((await send({ 'x-telegram-bot-api-secret-token': tg.webhookSecret })).statusCode);
      expect(legit).toEqual(Array(30).fill(200));
      const forged = [];
      for (let i = 0; i < 10; i++) forged.push((await send({ 'x-telegram-bot-api-secret-token': 'nope' })).statusCode);
      expect(forged.slice(0, 6)).toEqual(Array(6).fill(401));
      expect(forged.slice(6)).toEqual(Array(4).fill(429));
      // Telegram itself still gets through.
      expect((await send({ 'x-telegram-bot-api-secret-token': tg.webhookSecret })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
