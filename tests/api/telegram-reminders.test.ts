// The bot's claim reminders (decisions §14) against the Bot API stand-in: one message per ended
// session for a player with Telegram linked who started the bot, with reminders on; exactly once
// with two server processes on one database; a 403 stops them, a 429's retry_after is honoured,
// and a Telegram that hangs never fails or holds a claim.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { queueReadyReminder } from '../../server/workers/telegram-reminders';
import { endSession, openSessionId } from '../helpers/mining';
import { apiCall, balance, createPlayer, type TestPlayer } from '../helpers/players';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const SESSION_SECONDS = 60;
let telegramId = 800_000_000 + Math.floor(Math.random() * 100_000_000);
let updateId = 0;

interface TgPlayer extends TestPlayer {
  telegramId: number;
}

describe.each(testDialects())('telegram reminders on %s', (dialect) => {
  let tg: TelegramStandIn;
  let t: TestApp;
  const extra: FastifyInstance[] = [];

  beforeAll(async () => {
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, { ...tg.env, MINING_SESSION_SECONDS: String(SESSION_SECONDS) });
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await t?.close();
    await tg?.close();
  });

  /** Another server process on the same database (and DATA_DIR, so the same secrets). */
  async function otherProcess(opts: { workerIntervalMs?: number; timeoutMs?: number } = {}) {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      STATIC_DIR: '',
      WORKER_INTERVAL_MS: String(opts.workerIntervalMs ?? 0),
      APP_URL: 'http://app.test',
      RATE_LIMITS: 'off',
      MINING_SESSION_SECONDS: String(SESSION_SECONDS),
      ...tg.env,
      ...(t.app.config.databaseUrl ? { DATABASE_URL: t.app.config.databaseUrl } : {}),
    });
    if (opts.timeoutMs) config.telegram!.timeoutMs = opts.timeoutMs;
    const app = await buildApp(config, { logger: false });
    await app.ready();
    extra.push(app);
    return app;
  }

  const webhook = (app: FastifyInstance, update: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/telegram/webhook/',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': tg.webhookSecret },
      payload: JSON.stringify(update),
    });

  /** Sends /start from `id`'s private chat, as Telegram would. */
  async function startBot(id: number, app: FastifyInstance = t.app) {
    const res = await webhook(app, {
      update_id: ++updateId,
      message: {
        message_id: updateId,
        date: Math.floor(Date.now() / 1000),
        chat: { id, type: 'private', first_name: 'Ann' },
        from: { id, is_bot: false, first_name: 'Ann', language_code: 'en' },
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    expect(res.statusCode).toBe(200);
    await app.afterReplySettled();
  }

  /** A player with Telegram linked (as POST /auth/telegram/ links it) and, unless told, the bot started. */
  async function tgPlayer(opts: { started?: boolean; locale?: string } = {}): Promise<TgPlayer> {
    const p = await createPlayer(t);
    const id = ++telegramId;
    await t.app.db
      .updateTable('users')
      .set({
        telegram_id: String(id),
        telegram_name: 'Ann',
        telegram_added_at: Date.now(),
        locale: opts.locale ?? 'en',
      })
      .where('id', '=', p.id)
      .execute();
    if (opts.started !== false) await startBot(id);
    return { ...p, telegramId: id };
  }

  /** Starts a session through the API and moves its end into the past. */
  async function endedSession(p: TestPlayer): Promise<number> {
    const start = await apiCall(t, p, 'GET', '/mining/start/');
    expect(start.statusCode, start.body).toBe(200);
    const sessionId = start.json().session.id as number;
    await endSession(t, sessionId);
    return sessionId;
  }

  /** One worker pass of `app` and the sends it started. */
  async function tick(app: FastifyInstance = t.app) {
    const result = await app.miningWorker.tick();
    await app.telegramReminders!.idle();
    return result;
  }

  /** Reminders (their button opens /miner; /start's welcome opens the app) sent, or tried, to a chat. */
  const sentTo = (id: number) =>
    tg
      .callsOf('sendMessage')
      .filter((c) => Number(c.body.chat_id) === id && JSON.stringify(c.body.reply_markup).includes('/miner'));
  const rowsOf = (userId: number) =>
    t.app.db.selectFrom('bot_messages').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const counted = async (app: FastifyInstance, result: string) =>
    (await app.metrics.botMessages.get()).values.find((v) => v.labels.result === result)?.value ?? 0;

  it('sends one reminder per ended session, in the player language, with a button to /miner', async () => {
    const p = await tgPlayer({ locale: 'ru' });
    const sentBefore = await counted(t.app, 'sent');
    const sessionId = await endedSession(p);
    expect((await tick()).notified).toBeGreaterThanOrEqual(1);
    const [call, ...more] = sentTo(p.telegramId);
    expect(more).toEqual([]);
    expect(call.body.text).toMatch(/Сессия майнинга завершена/);
    expect(call.body.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Забрать', web_app: { url: 'http://app.test/miner' } }]],
    });
    expect(await rowsOf(p.id)).toEqual([
      expect.objectContaining({
        unique_key: `ready:${sessionId}`,
        kind: 'ready',
        chat_id: String(p.telegramId),
        locale: 'ru',
        state: 'sent',
        claimed_until: null,
      }),
    ]);
    expect(await counted(t.app, 'sent')).toBe(sentBefore + 1);

    // However often the worker runs, that session is done.
    await tick();
    await t.app.telegramReminders!.drain();
    expect(sentTo(p.telegramId)).toHaveLength(1);

    // The next session gets its own, in English for an English player.
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    await t.app.db.updateTable('users').set({ locale: 'en' }).where('id', '=', p.id).execute();
    await endedSession(p);
    await tick();
    expect(sentTo(p.telegramId).map((c) => c.body.text)).toEqual([
      expect.stringMatching(/Сессия/),
      expect.stringMatching(/Your mining session is over/),
    ]);
  });

  it('queues nothing for a player without Telegram, without a started bot, or with reminders off', async () => {
    const plain = await createPlayer(t);
    const notStarted = await tgPlayer({ started: false });
    const off = await tgPlayer();
    const switched = await apiCall(t, off, 'PUT', '/telegram/reminders/', { enabled: false });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json()).toEqual({ linked: true, available: true, enabled: false, bot_username: tg.botUsername });
    const calls = tg.callsOf('sendMessage').length;
    for (const p of [plain, notStarted, off]) await endedSession(p);
    await tick();
    for (const p of [plain, notStarted, off]) expect(await rowsOf(p.id)).toEqual([]);
    expect(tg.callsOf('sendMessage')).toHaveLength(calls);

    // Switched back on: the next session is reminded.
    expect((await apiCall(t, off, 'PUT', '/telegram/reminders/', { enabled: true })).json().enabled).toBe(true);
    expect((await apiCall(t, off, 'GET', '/mining/claim/')).statusCode).toBe(200);
    await endedSession(off);
    await tick();
    expect(sentTo(off.telegramId)).toHaveLength(1);
  });

  it('drops a queued reminder whose player switched reminders off before it went out', async () => {
    const p = await tgPlayer();
    const sessionId = await endedSession(p);
    // Queued as the worker queues it, then switched off before any drain.
    expect(await queueReadyReminder(t.app.db, { userId: p.id, sessionId, endsAt: Date.now() }, Date.now())).toBe(true);
    await apiCall(t, p, 'PUT', '/telegram/reminders/', { enabled: false });
    await t.app.telegramReminders!.drain();
    expect(sentTo(p.telegramId)).toEqual([]);
    expect(await rowsOf(p.id)).toEqual([
      expect.objectContaining({ state: 'failed', error: expect.stringMatching(/switched off/) }),
    ]);
  });

  it('tells the profile whether reminders can reach the player', async () => {
    const plain = await createPlayer(t);
    expect((await apiCall(t, plain, 'GET', '/telegram/reminders/')).json()).toEqual({
      linked: false,
      available: false,
      enabled: true,
      bot_username: tg.botUsername,
    });
    const notStarted = await tgPlayer({ started: false });
    expect((await apiCall(t, notStarted, 'GET', '/telegram/reminders/')).json()).toMatchObject({
      linked: true,
      available: false,
    });
    await startBot(notStarted.telegramId);
    expect((await apiCall(t, notStarted, 'GET', '/telegram/reminders/')).json()).toMatchObject({ available: true });
    expect((await apiCall(t, null, 'GET', '/telegram/reminders/')).statusCode).toBe(401);
    expect((await apiCall(t, plain, 'PUT', '/telegram/reminders/', { enabled: 'no' })).statusCode).toBe(400);
  });

  it('stops at a 403 (bot blocked): counted, the chat marked, nothing more until the next /start', async () => {
    const p = await tgPlayer();
    const blockedBefore = await counted(t.app, 'blocked');
    tg.blocked.add(p.telegramId);
    await endedSession(p);
    await tick();
    expect(sentTo(p.telegramId)).toHaveLength(1);
    expect(await counted(t.app, 'blocked')).toBe(blockedBefore + 1);
    expect(await rowsOf(p.id)).toEqual([expect.objectContaining({ state: 'failed' })]);
    const chat = await t.app.db
      .selectFrom('telegram_chats')
      .selectAll()
      .where('telegram_id', '=', String(p.telegramId))
      .executeTakeFirstOrThrow();
    expect(chat.blocked_at).not.toBeNull();
    expect((await apiCall(t, p, 'GET', '/telegram/reminders/')).json()).toMatchObject({ available: false });

    // The next sessions: no message, not even an attempt.
    for (let i = 0; i < 2; i++) {
      expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
      await endedSession(p);
      await tick();
    }
    expect(sentTo(p.telegramId)).toHaveLength(1);
    expect(await rowsOf(p.id)).toHaveLength(1);

    // Unblocked and /start again: reminders come back.
    tg.blocked.delete(p.telegramId);
    await startBot(p.telegramId);
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    await endedSession(p);
    await tick();
    expect(sentTo(p.telegramId)).toHaveLength(2);
  });

  it("honours a 429's retry_after: not resent before it, sent after it", async () => {
    const paused = await otherProcess();
    const p = await tgPlayer();
    const retriedBefore = await counted(paused, 'retried');
    tg.tooManyRequests('sendMessage', 30);
    await endedSession(p);
    const before = Date.now();
    await tick(paused);
    expect(sentTo(p.telegramId)).toHaveLength(1);
    expect(await counted(paused, 'retried')).toBe(retriedBefore + 1);
    const [row] = await rowsOf(p.id);
    expect(row.state).toBe('queued');
    expect(Number(row.next_at)).toBeGreaterThanOrEqual(before + 30_000);

    // Neither this process nor another sends it before then.
    await paused.telegramReminders!.drain();
    await t.app.telegramReminders!.drain();
    expect(sentTo(p.telegramId)).toHaveLength(1);

    // Once the wait is over (moved here instead of waiting), the other process sends it.
    await t.app.db
      .updateTable('bot_messages')
      .set({ next_at: Date.now() - 1 })
      .where('id', '=', row.id)
      .execute();
    await t.app.telegramReminders!.drain();
    expect(sentTo(p.telegramId)).toHaveLength(2);
    expect((await rowsOf(p.id))[0].state).toBe('sent');
  });

  it('never fails or holds a claim while Telegram hangs; the send times out and is retried later, then given up', async () => {
    const app = await otherProcess({ timeoutMs: 300 });
    const p = await tgPlayer();
    const failedBefore = await counted(app, 'failed');
    const coins = await balance(t, p.id, 'token');
    await endedSession(p);
    tg.hang = true;
    try {
      // The worker pass announces the session and queues the reminder without waiting for its send.
      expect((await app.miningWorker.tick()).notified).toBeGreaterThanOrEqual(1);
      const claim = await app.inject({
        method: 'GET',
        url: '/api/v1/mining/claim/',
        headers: { authorization: `Bearer ${p.token}` },
      });
      expect(claim.statusCode, claim.body).toBe(200);
      expect(await balance(t, p.id, 'token')).toBeGreaterThan(coins);
      await app.telegramReminders!.idle();
    } finally {
      tg.hang = false;
    }
    const [row] = await rowsOf(p.id);
    expect(row).toMatchObject({ state: 'queued', attempts: 1, claimed_until: null });
    expect(row.error).toMatch(/sendMessage/);
    expect(Number(row.next_at)).toBeGreaterThan(Date.now());
    expect(await counted(app, 'failed')).toBe(failedBefore);

    // At the last try it is given up and counted.
    tg.hang = true;
    try {
      await t.app.db.updateTable('bot_messages').set({ attempts: 4, next_at: 0 }).where('id', '=', row.id).execute();
      await app.telegramReminders!.drain();
    } finally {
      tg.hang = false;
    }
    expect((await rowsOf(p.id))[0]).toMatchObject({ state: 'failed', attempts: 5 });
    expect(await counted(app, 'failed')).toBe(failedBefore + 1);
  });

  it('lets the sends under way finish when the app closes, and takes no more rows', async () => {
    // Long enough for the test to see the send under way, short enough not to hold the close long.
    const app = await otherProcess({ timeoutMs: 2000 });
    extra.splice(extra.indexOf(app), 1);
    const [p, q] = [await tgPlayer(), await tgPlayer()];
    await endedSession(p);
    tg.hang = true;
    try {
      await app.miningWorker.tick();
      // Once the closing process holds p's row, a row for q becomes due: it is left to the others.
      await expect.poll(async () => (await rowsOf(p.id))[0]?.claimed_until ?? null, { timeout: 10_000 }).not.toBeNull();
      await queueReadyReminder(t.app.db, { userId: q.id, sessionId: 1e9 + q.id, endsAt: Date.now() }, Date.now());
      await app.close();
    } finally {
      tg.hang = false;
    }
    // The hanging send ended (timed out) and was settled before the database closed.
    expect((await rowsOf(p.id))[0]).toMatchObject({ state: 'queued', attempts: 1, claimed_until: null });
    expect((await rowsOf(q.id))[0]).toMatchObject({ state: 'queued', attempts: 0 });
    await t.app.telegramReminders!.drain();
    expect(sentTo(q.telegramId)).toHaveLength(1);
  });

  it('sends each reminder exactly once with two processes running their workers on the same database', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => tgPlayer()));
    const [a, b] = [await otherProcess(), await otherProcess()];
    // Both processes pass over the same ended sessions at the same moment, then drain at once.
    for (const p of players) await endedSession(p);
    const [one, two] = await Promise.all([a.miningWorker.tick(), b.miningWorker.tick()]);
    expect(one.notified + two.notified).toBe(players.length);
    await Promise.all([a.telegramReminders!.idle(), b.telegramReminders!.idle()]);
    await Promise.all([a.telegramReminders!.drain(), b.telegramReminders!.drain()]);
    for (const p of players) expect(sentTo(p.telegramId), `player ${p.id}`).toHaveLength(1);

    // Rows queued by hand and raced for by two drains: each goes out once.
    const rows = players.map((p, i) => ({
      user_id: p.id,
      chat_id: String(p.telegramId),
      kind: 'ready',
      unique_key: `race:${p.id}:${i}`,
      locale: 'en',
      next_at: 0,
      claimed_until: null,
      created_at: Date.now(),
      sent_at: null,
      error: null,
    }));
    await t.app.db.insertInto('bot_messages').values(rows).execute();
    const results = await Promise.all([a.telegramReminders!.drain(), b.telegramReminders!.drain()]);
    expect(results[0].sent + results[1].sent).toBe(players.length);
    for (const p of players) expect(sentTo(p.telegramId), `player ${p.id}`).toHaveLength(2);
  });

  it('sends each reminder exactly once with two processes whose workers run on their own timers', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => tgPlayer()));
    await otherProcess({ workerIntervalMs: 10 });
    await otherProcess({ workerIntervalMs: 10 });
    for (const p of players) await endedSession(p);
    const sent = () =>
      t.app.db
        .selectFrom('bot_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'user_id',
          'in',
          players.map((p) => p.id),
        )
        .where('state', '=', 'sent')
        .executeTakeFirstOrThrow();
    await expect.poll(async () => Number((await sent()).n), { timeout: 20_000, interval: 50 }).toBe(players.length);
    for (const p of players) {
      expect(sentTo(p.telegramId), `player ${p.id}`).toHaveLength(1);
      expect(await openSessionId(t, p.id)).not.toBeNull();
    }
  });
});
