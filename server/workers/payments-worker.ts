// The payments side of the background loop (decisions §8): every WORKER_INTERVAL_MS it
//  1. expires `created` orders past their 24 h (a checkout that never finished),
//  2. asks the provider again about `pending` orders whose next look is due (recheckOrder: soon
//     after the order, then less often, and once more at its expiry), paying, failing or expiring
//     them by the answer; an order still unpaid at its expiry expires. Settled orders are looked
//     at only when a notification asked (one that arrived just after a check was turned away).
// Several server processes may run it against one database: every step is a conditional update
// (the re-check claims the order through `checked_at`, so one process asks the provider; paying is
// `… where status in (…)` plus the ledger's unique `order:<id>`), and batches are small because
// each re-check may wait for a provider's answer.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db, Dialect } from '../db/schema';
import { expireOrder, forgetNextCheck, RECHECKABLE, recheckOrder } from '../services/payments/orders';
import type { PaymentRegistry } from '../services/payments/providers';
import { onePassAtATime, runEveryInterval } from './every-interval';

declare module 'fastify' {
  interface FastifyInstance {
    paymentsWorker: PaymentsWorker;
  }
}

export interface PaymentsTickResult {
  checked: number;
  paid: number;
  failed: number;
  expired: number;
}

export interface PaymentsWorker {
  /** One pass over due orders; passes never overlap within a process. Tests call it directly. */
  tick(now?: number): Promise<PaymentsTickResult>;
}

/** Orders taken per step and pass (each re-check may wait up to the provider's timeout). */
const BATCH = 20;
/** Two processes' passes at the same moment ask the provider about an order once. */
const WORKER_CHECK_GAP_MS = 2_000;

export function createPaymentsWorker(deps: {
  db: Db;
  dialect: Dialect;
  registry: Pick<PaymentRegistry, 'byName'>;
  log?: { warn(obj: unknown, msg: string): void };
}): PaymentsWorker {
  const { db } = deps;

  async function pass(now: number): Promise<PaymentsTickResult> {
    const result: PaymentsTickResult = { checked: 0, paid: 0, failed: 0, expired: 0 };
    const stale = await db
      .selectFrom('payment_orders')
      .select('id')
      .where('status', '=', 'created')
      .where('next_check_at', '<=', now)
      .orderBy('next_check_at')
      .limit(BATCH)
      .execute();
    for (const o of stale) if (await expireOrder(db, Number(o.id), now)) result.expired++;

    const due = await db
      .selectFrom('payment_orders')
      .selectAll()
      .where('status', 'in', RECHECKABLE)
      .where('next_check_at', '<=', now)
      .orderBy('next_check_at')
      .limit(BATCH)
      .execute();
    for (const order of due) {
      const provider = deps.registry.byName(order.provider);
      if (!provider) {
        // Its provider is no longer configured: nobody can say it was paid; it expires on time. A
        // settled order's asked-for look is dropped.
        if (order.status !== 'pending') await forgetNextCheck(db, Number(order.id));
        else if (await expireOrder(db, Number(order.id), now)) result.expired++;
        continue;
      }
      try {
        const outcome = await recheckOrder(
          { db, dialect: deps.dialect, providerFor: (name) => deps.registry.byName(name) },
          order,
          now,
          WORKER_CHECK_GAP_MS,
          { news: false },
        );
        if (outcome !== 'unchanged') result.checked++;
        if (outcome === 'paid') result.paid++;
        else if (outcome === 'failed') result.failed++;
        else if (outcome === 'expired') result.expired++;
      } catch (err) {
        // The claim already moved its next look on: a provider that is down is asked again later.
        deps.log?.warn({ err, orderId: Number(order.id) }, 'payment re-check failed');
      }
    }
    return result;
  }

  return {
    tick: onePassAtATime(pass),
  };
}

/** Runs the worker every `workerIntervalMs` from `onReady` until the app closes (0 = never; tests tick by hand). */
export default fp(
  async function paymentsWorkerPlugin(app: FastifyInstance) {
    const worker = createPaymentsWorker({ db: app.db, dialect: app.dialect, registry: app.payments, log: app.log });
    app.decorate('paymentsWorker', worker);
    runEveryInterval(app, 'payments worker', () => worker.tick());
  },
  { name: 'payments-worker', dependencies: ['config', 'db', 'payments'] },
);
