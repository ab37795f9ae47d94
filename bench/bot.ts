// Bot messages per second (decisions §14): 500 players with Telegram linked and the bot started,
// each with an ended session; the worker announces the sessions, queues one reminder each and its
// sender drains them through the Bot API stand-in (tests/helpers/telegram-stand-in.ts, on loopback
// in this process). Every reminder must go out exactly once. The app runs in this process: a
// production server refuses an http TELEGRAM_API_BASE, and the stand-in speaks http.
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { seedPlayers } from '../tests/helpers/bulk-players';
import { startTelegramStandIn } from '../tests/helpers/telegram-stand-in';
import { type BenchOptions, cleanup, tempDir } from './context';
import type { Table } from './table';

const REMINDERS = 500;

export async function botSection(table: Table, _opts: BenchOptions): Promise<void> {
  const tg = await startTelegramStandIn();
  cleanup.add('stop the Bot API stand-in', () => tg.close());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: tempDir('bot'),
    STATIC_DIR: '',
    WORKER_INTERVAL_MS: '0',
    APP_URL: 'http://127.0.0.1:8080',
    RATE_LIMITS: 'off',
    ...tg.env,
  });
  const app = await buildApp(config, { logger: false });
  cleanup.add('close the bot bench app', () => app.close());
  await app.ready();

  const { ids } = await seedPlayers(app.db, app.dialect, { count: REMINDERS, tag: 'botbench', session: 'ended' });
  // Linked and started as POST /auth/telegram/ and /start would leave them: Telegram id = chat id.
  const base = 500_000_000;
  await app.db
    .updateTable('users')
    .set({ telegram_id: sql`CAST(CAST(${base} AS INTEGER) + id AS TEXT)` })
    .where('id', 'in', ids)
    .execute();
  const now = Date.now();
  await app.db
    .insertInto('telegram_chats')
    .values(
      ids.map((id) => ({
        telegram_id: String(base + id),
        chat_id: String(base + id),
        started_at: now,
        blocked_at: null,
      })),
    )
    .execute();

  const started = performance.now();
  // The mining worker announces at most 200 sessions a pass; each announcement queues and kicks the sender.
  while ((await app.miningWorker.tick()).notified > 0);
  await app.telegramReminders!.idle();
  await app.telegramReminders!.drain();
  const seconds = (performance.now() - started) / 1000;

  const sent = tg.callsOf('sendMessage');
  const chats = new Set(sent.map((c) => String(c.body.chat_id)));
  const problems: string[] = [];
  if (sent.length !== REMINDERS) problems.push(`${sent.length} sendMessage calls for ${REMINDERS} sessions`);
  if (chats.size !== REMINDERS) problems.push(`${chats.size} chats reached`);
  table.add({
    section: 'bot',
    measure: `claim reminders sent through the Bot API stand-in (${REMINDERS} ended sessions, SQLite, one process)`,
    result: problems.length ? problems.join('; ') : `${Math.round(REMINDERS / seconds).toLocaleString('en-US')} msg/s`,
    verdict: problems.length ? 'failed' : 'info',
  });
}
