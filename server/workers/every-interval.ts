// The loop every background worker runs in: one pass every `workerIntervalMs` from `onReady` until
// the app closes (0 = never; tests tick by hand). A pass never overlaps the next, and a pass in
// flight finishes before the app closes.
import type { FastifyInstance } from 'fastify';

export function runEveryInterval(app: FastifyInstance, name: string, tick: () => Promise<unknown>): void {
  const interval = app.config.workerIntervalMs;
  if (interval <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<unknown> | null = null;
  let stopped = false;
  const loop = () => {
    if (stopped) return;
    current = tick()
      .catch((err) => app.log.error({ err }, `${name} tick failed`))
      .finally(() => {
        current = null;
        if (!stopped) timer = setTimeout(loop, interval);
      });
  };
  app.addHook('onReady', async () => {
    timer = setTimeout(loop, interval);
  });
  // preClose, not onClose: a pass in flight must finish before the db plugin's onClose closes the pool.
  app.addHook('preClose', async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current;
  });
}

/**
 * A worker's `tick`: one pass at a time in this process (the loop and a test, or two tests, may call
 * it together); a caller waits for the pass in flight, then runs its own.
 */
export function onePassAtATime<T>(pass: (now: number) => Promise<T>): (now?: number) => Promise<T> {
  let running: Promise<T> | null = null;
  return async (now = Date.now()) => {
    while (running) await running.catch(() => undefined);
    running = pass(now);
    try {
      return await running;
    } finally {
      running = null;
    }
  };
}
