// Push reminders (decisions §6): when the mining worker announces a finished session of a player
// without Auto Miner, every push subscription of that player gets one Web Push. The worker
// announces each session once across all processes (its conditional update on
// `ready_notified_at`), so this plugin sends at most one push per subscription and session.
// Sends run beside the worker loop, not inside it: a slow or hanging push service must not delay
// the Auto Miner's claims. `app.pushReminders.idle()` waits for the sends under way.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPushSender, sessionReadyPayload } from '../services/push';

declare module 'fastify' {
  interface FastifyInstance {
    pushReminders: { idle(): Promise<void> };
  }
}

/** Sessions whose pushes are sent at the same time; the rest wait their turn. */
const CONCURRENCY = 8;

export default fp(
  async function pushReminders(app: FastifyInstance) {
    // PUSH_CA_FILE adds trust (tests' self-signed push service); the system roots stay trusted
    // and certificate checks stay on.
    const ca = app.config.pushCaFile ? [...rootCertificates, readFileSync(app.config.pushCaFile, 'utf8')] : undefined;
    const sender = createPushSender({
      db: app.db,
      vapid: app.config.vapid,
      allowedHosts: app.config.pushAllowedHosts,
      ca,
      log: app.log,
    });

    const inFlight = new Set<Promise<void>>();
    const waiting: (() => void)[] = [];
    let running = 0;
    const slot = async () => {
      if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
    };
    const release = () => {
      running--;
      waiting.shift()?.();
    };

    app.miningWorker.onSessionReady((event) => {
      const job = (async () => {
        await slot();
        try {
          const result = await sender.sendToUser(event.userId, (locale) => sessionReadyPayload(event, locale));
          for (const outcome of ['sent', 'gone', 'failed'] as const)
            if (result[outcome]) app.metrics.pushSent.inc({ result: outcome }, result[outcome]);
          if (result.sent + result.gone + result.failed > 0)
            app.log.debug({ sessionId: event.sessionId, ...result }, 'ready reminder pushed');
        } catch (err) {
          app.log.error({ err, sessionId: event.sessionId }, 'ready reminder failed');
        } finally {
          release();
        }
      })();
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
    });

    const idle = async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    };
    app.decorate('pushReminders', { idle });
    // After the mining worker's preClose (registered earlier) has finished its last tick.
    app.addHook('preClose', async () => {
      await idle();
      sender.close();
    });
  },
  { name: 'push-reminders', dependencies: ['config', 'db', 'metrics', 'mining-worker'] },
);
