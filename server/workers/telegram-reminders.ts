// The bot's claim reminders (decisions §14). The mining worker announces each finished session once
// across all processes (push-reminders.ts says how); for a player with Telegram linked, reminders
// on and a chat with the bot that is started and not blocked, the announcing process writes one row
// to the bot's outbox (`bot_messages`, unique key `ready:<session id>`: one per session whatever
// happens). Any process sends it: the sender takes due rows with a conditional update of
// `claimed_until` (a lease longer than one Bot API call may take), so two processes never send the
// same row; a process that died holding one leaves it to another once the lease runs out.
// Answers of the Bot API: 429 → not before its retry_after (and this process pauses that long:
// the limit is the bot's); 403 → the player blocked the bot: the chat is marked blocked and gets
// nothing more until the next /start; a network error, timeout or 5xx → again later with backoff,
// failed after a few tries. The sender runs beside the mining worker, never inside a claim.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GrammyError, HttpError } from 'grammy';
import type { Updateable } from 'kysely';
import type { Db } from '../db/schema';
import type { BotMessagesTable } from '../db/tables/telegram';
import type { SessionReady } from './mining-worker';
import { botLocaleOf, readyText } from '../services/telegram-texts';
import { runEveryInterval } from './every-interval';

declare module 'fastify' {
  interface FastifyInstance {
    /** Null while Telegram is not configured. */
    telegramReminders: TelegramReminders | null;
  }
}

export interface DrainResult {
  sent: number;
  retried: number;
  blocked: number;
  failed: number;
  /** Dropped unsent: reminders switched off, the chat blocked or changed, or too old. */
  dropped: number;
}

export interface TelegramReminders {
  /** Sends every due message this process can take; a caller waits for a drain in flight, then runs its own. */
  drain(): Promise<DrainResult>;
  /** Resolves once the drains started so far (by the loop or a new reminder) have finished. */
  idle(): Promise<void>;
}

/** Rows taken per claim. */
const BATCH = 100;
/** Messages in flight at once per process (Telegram allows a bot about 30 a second). */
const CONCURRENCY = 8;
/** Tries before a message that keeps meeting network errors is given up. */
const MAX_ATTEMPTS = 5;
/** The first retry's wait after a network error; doubled each try (30 s, 1, 2, 4 min: an outage of minutes is ridden out). */
const BACKOFF_MS = 30_000;
/** A reminder not sent within this long is not worth sending (the player has likely claimed by then). */
const STALE_MS = 60 * 60 * 1000;

/** Queues the reminder of one announced session, when the player can and wants to get it. True when a row was written. */
export async function queueReadyReminder(db: Db, event: SessionReady, now: number): Promise<boolean> {
  const target = await db
    .selectFrom('users as u')
    .innerJoin('telegram_chats as c', 'c.telegram_id', 'u.telegram_id')
    .select(['c.chat_id', 'u.locale'])
    .where('u.id', '=', event.userId)
    .where('u.telegram_reminders', '=', 1)
    .where('c.blocked_at', 'is', null)
    .executeTakeFirst();
  if (!target) return false;
  const inserted = await db
    .insertInto('bot_messages')
    .values({
      user_id: event.userId,
      chat_id: target.chat_id,
      kind: 'ready',
      unique_key: `ready:${event.sessionId}`,
      locale: target.locale,
      next_at: now,
      claimed_until: null,
      created_at: now,
      sent_at: null,
      error: null,
    })
    .onConflict((oc) => oc.column('unique_key').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export default fp(
  async function telegramReminders(app: FastifyInstance) {
    const telegram = app.telegram;
    if (!telegram) {
      app.decorate('telegramReminders', null);
      return;
    }
    const { db, metrics } = app;
    const api = telegram.api;
    const minerUrl = `${app.config.appUrl}/miner`;
    // Longer than one call may take (grammY's timeout), so a live sender never loses its row.
    const leaseMs = telegram.settings.timeoutMs + 30_000;
    /** A 429 holds every send of this process until then. */
    let pausedUntil = 0;
    /** Set when the app closes: the sends under way finish, no more rows are taken. */
    let closing = false;

    type Claimed = { id: number; lease: number };
    const empty = (): DrainResult => ({ sent: 0, retried: 0, blocked: 0, failed: 0, dropped: 0 });

    /** Due rows this process now holds (a conditional update per batch: of two processes, each row goes to one). */
    async function claim(now: number): Promise<Claimed[]> {
      const due = await db
        .selectFrom('bot_messages')
        .select('id')
        .where('state', '=', 'queued')
        .where('next_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .orderBy('next_at')
        .limit(BATCH)
        .execute();
      if (due.length === 0) return [];
      const lease = now + leaseMs;
      const won = await db
        .updateTable('bot_messages')
        .set({ claimed_until: lease })
        .where(
          'id',
          'in',
          due.map((r) => r.id),
        )
        .where('state', '=', 'queued')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .returning('id')
        .execute();
      return won.map((r) => ({ id: Number(r.id), lease }));
    }

    /** Updates a row this process still holds (its lease unchanged). */
    const settle = (m: Claimed, set: Updateable<BotMessagesTable>) =>
      db.updateTable('bot_messages').set(set).where('id', '=', m.id).where('claimed_until', '=', m.lease).execute();

    async function sendOne(m: Claimed, result: DrainResult): Promise<void> {
      const row = await db
        .selectFrom('bot_messages as b')
        .innerJoin('users as u', 'u.id', 'b.user_id')
        .leftJoin('telegram_chats as c', 'c.telegram_id', 'u.telegram_id')
        .select([
          'b.chat_id',
          'b.locale',
          'b.attempts',
          'b.created_at',
          'u.telegram_reminders',
          'c.chat_id as current_chat',
          'c.blocked_at',
        ])
        .where('b.id', '=', m.id)
        .executeTakeFirst();
      if (!row) return;
      const now = Date.now();
      // Decided at sending, not only at queueing: the switch, a block (a 403 of an earlier message)
      // or a new chat may have come since.
      const stop =
        Number(row.telegram_reminders) !== 1
          ? 'reminders switched off'
          : row.current_chat !== row.chat_id || row.blocked_at !== null
            ? 'chat blocked or changed'
            : now - Number(row.created_at) > STALE_MS
              ? 'stale'
              : null;
      if (stop) {
        result.dropped++;
        await settle(m, { state: 'failed', claimed_until: null, error: `not sent: ${stop}` });
        return;
      }
      if (now < pausedUntil) {
        await settle(m, { next_at: pausedUntil, claimed_until: null });
        return;
      }
      const attempts = Number(row.attempts) + 1;
      const { text, button } = readyText(botLocaleOf(row.locale));
      try {
        await api.sendMessage(row.chat_id, text, {
          reply_markup: { inline_keyboard: [[{ text: button, web_app: { url: minerUrl } }]] },
        });
        await settle(m, { state: 'sent', sent_at: Date.now(), attempts, claimed_until: null, error: null });
        result.sent++;
        metrics.botMessages.inc({ result: 'sent' });
      } catch (err) {
        await failed(m, row.chat_id, attempts, err, result);
      }
    }

    async function failed(m: Claimed, chatId: string, attempts: number, err: unknown, result: DrainResult) {
      const now = Date.now();
      const error = err instanceof Error ? err.message.slice(0, 500) : String(err);
      if (err instanceof GrammyError && err.error_code === 429) {
        const waitMs = Math.max(1, err.parameters.retry_after ?? 1) * 1000;
        pausedUntil = Math.max(pausedUntil, now + waitMs);
        await settle(m, { next_at: now + waitMs, attempts, claimed_until: null, error });
        result.retried++;
        metrics.botMessages.inc({ result: 'retried' });
        return;
      }
      if (err instanceof GrammyError && err.error_code === 403) {
        await db
          .updateTable('telegram_chats')
          .set({ blocked_at: now })
          .where('chat_id', '=', chatId)
          .where('blocked_at', 'is', null)
          .execute();
        await settle(m, { state: 'failed', attempts, claimed_until: null, error });
        result.blocked++;
        metrics.botMessages.inc({ result: 'blocked' });
        return;
      }
      const transient = err instanceof HttpError || (err instanceof GrammyError && err.error_code >= 500);
      if (transient && attempts < MAX_ATTEMPTS) {
        await settle(m, { next_at: now + BACKOFF_MS * 2 ** (attempts - 1), attempts, claimed_until: null, error });
        return;
      }
      await settle(m, { state: 'failed', attempts, claimed_until: null, error });
      result.failed++;
      metrics.botMessages.inc({ result: 'failed' });
      app.log.warn({ err, messageId: m.id }, 'bot message failed');
    }

    async function drainOnce(): Promise<DrainResult> {
      const result = empty();
      for (;;) {
        const now = Date.now();
        if (closing || now < pausedUntil) break;
        const claimed = await claim(now);
        if (claimed.length === 0) break;
        let next = 0;
        const lane = async () => {
          while (next < claimed.length) {
            const m = claimed[next++];
            try {
              await sendOne(m, result);
            } catch (err) {
              app.log.error({ err, messageId: m.id }, 'bot message could not be handled');
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, lane));
      }
      return result;
    }

    // One drain at a time in this process; a kick during a drain runs one more after it.
    let running: Promise<DrainResult> | null = null;
    let again = false;
    const drain = async (): Promise<DrainResult> => {
      while (running) await running.catch(() => undefined);
      running = drainOnce();
      try {
        return await running;
      } finally {
        running = null;
      }
    };
    const inFlight = new Set<Promise<unknown>>();
    const track = (job: Promise<unknown>) => {
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
    };
    const kick = () => {
      if (running) {
        if (!again) {
          again = true;
          track(
            running
              .catch(() => undefined)
              .then(() => {
                again = false;
                return drain();
              })
              .catch((err) => app.log.error({ err }, 'bot reminders drain failed')),
          );
        }
        return;
      }
      track(drain().catch((err) => app.log.error({ err }, 'bot reminders drain failed')));
    };

    app.miningWorker.onSessionReady(async (event) => {
      if (await queueReadyReminder(db, event, Date.now())) kick();
    });

    const idle = async () => {
      while (inFlight.size > 0 || running) {
        await Promise.allSettled([...inFlight, ...(running ? [running] : [])]);
      }
    };
    app.decorate('telegramReminders', { drain, idle });
    // After the mining worker's preClose (registered earlier): its last pass may have queued rows,
    // left for the next process to send; only the sends under way are waited for.
    app.addHook('preClose', async () => {
      closing = true;
      await idle();
    });
    // Its preClose after the one above, which already stopped the drains taking more rows.
    runEveryInterval(app, 'bot reminders', drain);
  },
  { name: 'telegram-reminders', dependencies: ['config', 'db', 'metrics', 'telegram', 'mining-worker'] },
);
