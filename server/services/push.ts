// Web Push (decisions §6): the players' browser subscriptions and the "ready to claim" reminder.
// Sending goes through the `web-push` package (VAPID, aes128gcm); a subscription the push service
// calls gone (404/410) is deleted, any other failure is counted and logged, never thrown. Where a
// push may go is push-endpoint-policy.ts's decision, checked again before every send.
import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import type { PushPayload, PushSubscriptionJson } from '@shared/api/push';
import type { Db } from '../db/schema';
import { type Locale, localeFrom } from './player-locale';
import { type AllowedHosts, endpointProblem, pushAgent, type ResolveAll } from './push-endpoint-policy';

/** Newest subscriptions kept per player (phones, browsers); older ones are dropped on subscribe. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/** A subscription failing this many sends in a row (no 404/410, e.g. a dead host) is dropped. */
export const MAX_CONSECUTIVE_FAILURES = 30;
/** The reminder is worth delivering while the player may still want to claim soon. */
const REMINDER_TTL_SECONDS = 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

const unpadded = (b64url: string) => b64url.replace(/=+$/, '');

// A key pair of our own, only to let OpenSSL check that a client key is a point on the curve.
const probe = createECDH('prime256v1');
probe.generateKeys();

/** True when `p256dh` (base64url) is a point on P-256, so encrypting to it cannot fail later. */
export function isValidClientKey(p256dh: string): boolean {
  try {
    probe.computeSecret(Buffer.from(unpadded(p256dh), 'base64url'));
    return true;
  } catch {
    return false;
  }
}

/** Stores the subscription for `userId`; an endpoint someone else had moves to this player. */
export async function saveSubscription(
  db: Db,
  userId: number,
  sub: PushSubscriptionJson,
  now = Date.now(),
): Promise<{ endpoint: string; createdAt: number }> {
  const values = {
    user_id: userId,
    p256dh: unpadded(sub.keys.p256dh),
    auth: unpadded(sub.keys.auth),
    created_at: now,
    last_success_at: null,
    failures: 0,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('push_subscriptions')
      .values({ endpoint: sub.endpoint, ...values })
      .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
      .execute();
    const keep = trx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_SUBSCRIPTIONS_PER_USER);
    await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', 'not in', keep).execute();
  });
  return { endpoint: sub.endpoint, createdAt: now };
}

/** Removes the player's own subscription with this endpoint; false when there was none. */
export async function removeSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const res = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

const READY_TEXTS: Record<Locale, { title: string; body: string }> = {
  en: {
    title: 'Your PXT is ready to claim',
    body: 'Your mining session has ended. Open the app to claim your PXT and start the next one.',
  },
  ru: {
    title: 'Ваши PXT можно забрать',
    body: 'Сессия майнинга завершилась. Откройте приложение, чтобы забрать PXT и начать следующую.',
  },
};

/** The reminder in the player's language (`users.locale`, the interface they last used). */
export function sessionReadyPayload(event: { sessionId: number; endsAt: number }, locale: Locale = 'en'): PushPayload {
  return {
    type: 'mining_ready',
    ...READY_TEXTS[locale],
    url: '/miner',
    tag: 'mining-ready',
    session_id: event.sessionId,
    ends_at: new Date(event.endsAt).toISOString(),
  };
}

export interface SendResult {
  sent: number;
  gone: number;
  failed: number;
}

export interface PushSenderOptions {
  db: Db;
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** PUSH_ALLOWED_HOSTS: hosts reached although not public. */
  allowedHosts: AllowedHosts;
  /** Trusted CA certificates (PEM) in place of the system ones; PUSH_CA_FILE adds to those. */
  ca?: string[];
  /** How host names are resolved before connecting (the system resolver unless a test plays DNS). */
  resolveAll?: ResolveAll;
  log?: { warn(obj: unknown, msg: string): void };
}

export interface PushSender {
  /**
   * Sends `payload` (or what it makes of the player's language) once to every subscription of the
   * player. Never throws for a failed send.
   */
  sendToUser(userId: number, payload: PushPayload | ((locale: Locale) => PushPayload)): Promise<SendResult>;
  /** Closes the pooled connections. */
  close(): void;
}

export function createPushSender(opts: PushSenderOptions): PushSender {
  const { db, allowedHosts } = opts;
  // Every push connects through this agent, whose lookup refuses non-public addresses; web-push
  // makes one plain request and follows no redirect (a 3xx is a failed send).
  const agent = pushAgent({ allowed: allowedHosts, ca: opts.ca, resolveAll: opts.resolveAll });

  async function sendOne(
    sub: { id: number; endpoint: string; p256dh: string; auth: string },
    body: string,
  ): Promise<keyof SendResult> {
    // A row from before the policy, or stored by other means: never contacted, and dropped.
    const problem = endpointProblem(sub.endpoint, allowedHosts);
    if (problem) {
      opts.log?.warn(
        { subscriptionId: sub.id, problem },
        'push endpoint refused by the endpoint policy; subscription dropped',
      );
      await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
      return 'gone';
    }
    try {
      // The WHATWG form of the URL, so web-push's own (legacy) URL parser reads the host checked above.
      await webpush.sendNotification(
        { endpoint: new URL(sub.endpoint).href, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        body,
        {
          vapidDetails: opts.vapid,
          contentEncoding: 'aes128gcm',
          TTL: REMINDER_TTL_SECONDS,
          urgency: 'normal',
          // A reminder not yet delivered is replaced by the next one instead of piling up.
          topic: 'mining-ready',
          timeout: SEND_TIMEOUT_MS,
          agent,
        },
      );
      await db
        .updateTable('push_subscriptions')
        .set({ last_success_at: Date.now(), failures: 0 })
        .where('id', '=', sub.id)
        .execute();
      return 'sent';
    } catch (err) {
      const status = err instanceof webpush.WebPushError ? err.statusCode : null;
      if (status === 404 || status === 410) {
        await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
        return 'gone';
      }
      opts.log?.warn(
        {
          err: err instanceof webpush.WebPushError ? { statusCode: status, body: err.body?.slice(0, 500) } : err,
          subscriptionId: sub.id,
        },
        'web push failed',
      );
      await db
        .updateTable('push_subscriptions')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('id', '=', sub.id)
        .execute();
      await db
        .deleteFrom('push_subscriptions')
        .where('id', '=', sub.id)
        .where('failures', '>=', MAX_CONSECUTIVE_FAILURES)
        .execute();
      return 'failed';
    }
  }

  return {
    async sendToUser(userId, payload) {
      // The language comes with the subscriptions: no read at all for the many players without one.
      const subs = await db
        .selectFrom('push_subscriptions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id', 's.endpoint', 's.p256dh', 's.auth', 'u.locale'])
        .where('s.user_id', '=', userId)
        .execute();
      if (subs.length === 0) return { sent: 0, gone: 0, failed: 0 };
      const body = JSON.stringify(typeof payload === 'function' ? payload(localeFrom(subs[0]!.locale)) : payload);
      const result: SendResult = { sent: 0, gone: 0, failed: 0 };
      const outcomes = await Promise.allSettled(
        subs.map(({ locale: _locale, ...s }) => sendOne({ ...s, id: Number(s.id) }, body)),
      );
      for (const o of outcomes) {
        if (o.status === 'fulfilled') result[o.value]++;
        else {
          // Only the bookkeeping query after a send can land here (e.g. the database went away).
          result.failed++;
          opts.log?.warn({ err: o.reason, userId }, 'web push bookkeeping failed');
        }
      }
      return result;
    },
    close: () => agent.destroy(),
  };
}
