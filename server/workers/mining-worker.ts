// The background loop of decisions §6: every WORKER_INTERVAL_MS (default 1 s, so within 5 s of a
// session's end) it
//  1. claims each finished session of a player whose Auto Miner runs, and starts the next one with
//     any selected boost;
//  2. starts a session for Auto Miner players who have none (e.g. after a manual claim);
//  3. tells the "session ready" listeners about finished sessions of players without Auto Miner —
//     the extension point for reminders (Web Push registers with `onSessionReady`).
// Several server processes may run it against one database. Every step is decided by a
// conditional update (claim: `… where claimed = 0`; notify: `… where ready_notified_at is null`) or
// the one-open-session unique index, which exactly one process wins; on PostgreSQL the claim first
// takes the row with FOR UPDATE SKIP LOCKED so processes split the work instead of queueing on it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ExpressionBuilder } from 'kysely';
import type { DB, Db, Dialect } from '../db/schema';
import type { WorkerStep } from '../lib/metrics';
import { claimSession, startSession } from '../services/mining-sessions';
import { onePassAtATime, runEveryInterval } from './every-interval';

declare module 'fastify' {
  interface FastifyInstance {
    miningWorker: MiningWorker;
  }
}

export interface SessionReady {
  userId: number;
  sessionId: number;
  endsAt: number;
}
export type SessionReadyListener = (event: SessionReady) => Promise<void> | void;

export interface TickResult {
  claimed: number;
  started: number;
  notified: number;
}

export interface MiningWorker {
  /** One pass over due work; ticks never overlap within a process. Tests call it directly. */
  tick(now?: number): Promise<TickResult>;
  /** Called once per finished session of a player without a running Auto Miner. */
  onSessionReady(listener: SessionReadyListener): void;
}

/** Work taken per step and tick; the rest waits for the next tick. */
const BATCH = 200;
/** A session that ended longer ago than this is not announced any more (e.g. when reminders are first switched on). */
const READY_WINDOW_MS = 60 * 60 * 1000;

/** What the worker reports for metrics (lib/metrics.ts); every session it handles, once committed. */
export interface WorkerObserver {
  /** A finished session handled `lateBySeconds` after its end: claimed for the Auto Miner, or announced as ready. */
  handled(step: WorkerStep, lateBySeconds: number): void;
  passDone(at: number): void;
}

export function createMiningWorker(deps: {
  db: Db;
  dialect: Dialect;
  sessionSeconds: number;
  log?: { error(obj: unknown, msg: string): void };
  observer?: WorkerObserver;
}): MiningWorker {
  const { db, dialect } = deps;
  const listeners: SessionReadyListener[] = [];

  /** The session's player (`m`) has an Auto Miner period running at `now`. */
  const activeSubscription = (now: number) => (eb: ExpressionBuilder<DB & { m: DB['mining_sessions'] }, 'm'>) =>
    eb.exists(
      eb
        .selectFrom('auto_miner_subscriptions as a')
        .select('a.id')
        .whereRef('a.user_id', '=', 'm.user_id')
        .where('a.started_at', '<=', now)
        .where('a.expires_at', '>', now),
    );

  async function claimAndRestart(now: number): Promise<{ claimed: number; started: number }> {
    // From the running Auto Miner periods (index on expires_at) to their players' open session
    // (one-open-session index): never through the finished sessions of players without one.
    const due = await db
      .selectFrom('auto_miner_subscriptions as a')
      .innerJoin('mining_sessions as m', (join) => join.onRef('m.user_id', '=', 'a.user_id').on('m.claimed', '=', 0))
      .select(['m.id', 'm.user_id', 'm.ends_at'])
      .distinct()
      .where('a.started_at', '<=', now)
      .where('a.expires_at', '>', now)
      .where('m.ends_at', '<=', now)
      .orderBy('m.ends_at')
      .limit(BATCH)
      .execute();
    let claimed = 0;
    let started = 0;
    for (const s of due) {
      const won = await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') {
          const mine = await trx
            .selectFrom('mining_sessions')
            .select('id')
            .where('id', '=', s.id)
            .where('claimed', '=', 0)
            .forUpdate()
            .skipLocked()
            .executeTakeFirst();
          if (!mine) return false;
        }
        if (!(await claimSession(trx, Number(s.id), now))) return false;
        if (await startSession(trx, Number(s.user_id), { now, sessionSeconds: deps.sessionSeconds, auto: true }))
          started++;
        return true;
      });
      if (!won) continue;
      claimed++;
      deps.observer?.handled('auto_claim', (now - Number(s.ends_at)) / 1000);
    }
    return { claimed, started };
  }

  async function startIdle(now: number): Promise<number> {
    const idle = await db
      .selectFrom('auto_miner_subscriptions as a')
      .select('a.user_id')
      .distinct()
      .where('a.started_at', '<=', now)
      .where('a.expires_at', '>', now)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('mining_sessions as m')
              .select('m.id')
              .whereRef('m.user_id', '=', 'a.user_id')
              .where('m.claimed', '=', 0),
          ),
        ),
      )
      .limit(BATCH)
      .execute();
    let started = 0;
    for (const u of idle) {
      // The one-open-session index lets exactly one process (or a racing /mining/start/) insert.
      const ok = await db
        .transaction()
        .execute((trx) =>
          startSession(trx, Number(u.user_id), { now, sessionSeconds: deps.sessionSeconds, auto: true }),
        );
      if (ok) started++;
    }
    return started;
  }

  async function announceReady(now: number): Promise<number> {
    if (listeners.length === 0) return 0;
    const ready = await db
      .selectFrom('mining_sessions as m')
      .select(['m.id', 'm.user_id', 'm.ends_at'])
      .where('m.claimed', '=', 0)
      .where('m.ends_at', '<=', now)
      .where('m.ends_at', '>', now - READY_WINDOW_MS)
      .where('m.ready_notified_at', 'is', null)
      .where((eb) => eb.not(activeSubscription(now)(eb)))
      .orderBy('m.ends_at')
      .limit(BATCH)
      .execute();
    let notified = 0;
    for (const s of ready) {
      const won = await db
        .updateTable('mining_sessions')
        .set({ ready_notified_at: now })
        .where('id', '=', s.id)
        .where('ready_notified_at', 'is', null)
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) !== 1) continue;
      notified++;
      deps.observer?.handled('ready_notice', (now - Number(s.ends_at)) / 1000);
      const event = { userId: Number(s.user_id), sessionId: Number(s.id), endsAt: Number(s.ends_at) };
      for (const listener of listeners) {
        try {
          await listener(event);
        } catch (err) {
          deps.log?.error({ err, sessionId: event.sessionId }, 'session-ready listener failed');
        }
      }
    }
    return notified;
  }

  async function pass(now: number): Promise<TickResult> {
    const a = await claimAndRestart(now);
    const started = await startIdle(now);
    const notified = await announceReady(now);
    deps.observer?.passDone(Date.now());
    return { claimed: a.claimed, started: a.started + started, notified };
  }

  return {
    tick: onePassAtATime(pass),
    onSessionReady(listener) {
      listeners.push(listener);
    },
  };
}

/** Runs the worker every `workerIntervalMs` from `onReady` until the app closes (0 = never; tests tick by hand). */
export default fp(
  async function miningWorkerPlugin(app: FastifyInstance) {
    const { metrics } = app;
    const observer: WorkerObserver = {
      handled(step, lateBySeconds) {
        metrics.workerLag.observe({ step }, Math.max(0, lateBySeconds));
        if (step === 'auto_claim') metrics.claims.inc({ source: 'auto_miner' });
      },
      passDone: (at) => metrics.workerLastPass.set(at / 1000),
    };
    const worker = createMiningWorker({
      db: app.db,
      dialect: app.dialect,
      sessionSeconds: app.config.miningSessionSeconds,
      log: app.log,
      observer,
    });
    app.decorate('miningWorker', worker);
    runEveryInterval(app, 'mining worker', () => worker.tick());
  },
  { name: 'mining-worker', dependencies: ['config', 'db', 'metrics'] },
);
