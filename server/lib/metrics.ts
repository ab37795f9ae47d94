// The Prometheus metrics of decisions §12, in a registry of their own per app: tests build many apps
// in one process, and prom-client's global registry would refuse the second set of names. Labels
// take only values from short fixed lists (route patterns, never URLs: tokens travel in paths).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpDurations } from './http-durations';

export type MailResult = 'sent' | 'failed';
export type PushResult = 'sent' | 'failed' | 'gone';
/** A bot message's end: sent, retried after a 429, blocked (403: no more messages), failed (given up). */
export type BotMessageResult = 'sent' | 'retried' | 'blocked' | 'failed';
/** A membership check's answer for a follow quest (decisions §14); `error`: Telegram or Discord did not answer. */
export type FollowCheckResult = 'member' | 'not_member' | 'not_linked' | 'error';
export type FollowNetwork = 'telegram_ru' | 'telegram_eng' | 'discord';
/** Who claimed: the player through the API, or the Auto Miner's worker pass. */
export type ClaimSource = 'player' | 'auto_miner';
/** The worker's steps that handle a finished session. */
export type WorkerStep = 'auto_claim' | 'ready_notice';

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const metrics = {
    registry,
    /** Answer times by method, route pattern and status (lib/http-durations.ts: moved on every answer). */
    httpDuration: new HttpDurations(
      'http_request_duration_seconds',
      'Time from request to answer, by method, route pattern and status',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    ),
    claims: new Counter({
      name: 'pxt_claims_total',
      help: 'Mining sessions claimed and paid, by the player or the Auto Miner',
      labelNames: ['source'] as const,
      registers,
    }),
    ledgerPostings: new Counter({
      name: 'pxt_ledger_postings_total',
      help: 'Committed ledger postings (every movement of money), by currency and reason',
      labelNames: ['currency', 'reason'] as const,
      registers,
    }),
    workerLag: new Histogram({
      name: 'pxt_worker_lag_seconds',
      help: 'How long after its end the background worker handled a finished session (Auto Miner claim or ready reminder)',
      labelNames: ['step'] as const,
      buckets: [1, 2, 5, 10, 30, 60, 120, 300, 900, 1800, 3600],
      registers,
    }),
    workerLastPass: new Gauge({
      name: 'pxt_worker_last_pass_timestamp_seconds',
      help: 'When the background worker last finished a pass (Unix time); stale means the worker is stuck',
      registers,
    }),
    pushSent: new Counter({
      name: 'pxt_push_sent_total',
      help: 'Web Push sends: sent, failed, or gone (subscription dropped)',
      labelNames: ['result'] as const,
      registers,
    }),
    mailSent: new Counter({
      name: 'pxt_mail_sent_total',
      help: 'Mails handed to SMTP or written to the outbox, and mails that could not be sent',
      labelNames: ['result'] as const,
      registers,
    }),
    payments: new Counter({
      name: 'pxt_payments_total',
      help: 'Gems top-ups by payment method and outcome (paid, pending, failed, error, unavailable)',
      labelNames: ['method', 'status'] as const,
      registers,
    }),
    botMessages: new Counter({
      name: 'pxt_bot_messages_total',
      help: 'Telegram bot messages: sent, retried after a 429, blocked by the player (403), failed',
      labelNames: ['result'] as const,
      registers,
    }),
    followChecks: new Counter({
      name: 'pxt_follow_checks_total',
      help: 'Membership checks of the follow quests, by network and result (member, not_member, not_linked, error)',
      labelNames: ['network', 'result'] as const,
      registers,
    }),
  };
  // Series that exist from the start read 0 rather than missing, so rates and alerts work before the first event.
  for (const source of ['player', 'auto_miner'] satisfies ClaimSource[]) metrics.claims.inc({ source }, 0);
  for (const result of ['sent', 'failed'] satisfies MailResult[]) metrics.mailSent.inc({ result }, 0);
  for (const result of ['sent', 'failed', 'gone'] satisfies PushResult[]) metrics.pushSent.inc({ result }, 0);
  for (const result of ['sent', 'retried', 'blocked', 'failed'] satisfies BotMessageResult[])
    metrics.botMessages.inc({ result }, 0);
  registry.registerMetric(metrics.httpDuration as never);
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
