// Work a route starts only once its answer has gone out: mails (a slow or hanging SMTP server must
// not hold the answer) and the work that decides whether there is a mail at all (a password reset
// must answer known and unknown addresses alike). Failures are logged; nobody is waiting for them.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs `task` after `reply` has been sent (or the client went away); errors are logged with `label`. */
    afterReply(reply: FastifyReply, label: string, task: () => Promise<unknown>): void;
    /** Resolves once every task started so far has finished (shutdown, tests reading the outbox). */
    afterReplySettled(): Promise<void>;
  }
}

/** How long a shutdown waits for work still running after its answer. */
const CLOSE_WAIT_MS = 10_000;

export default fp(
  async function afterReply(app: FastifyInstance) {
    const pending = new Set<Promise<void>>();

    app.decorate('afterReply', (reply: FastifyReply, label: string, task: () => Promise<unknown>) => {
      const sent = new Promise<void>((resolve) => {
        const res = reply.raw;
        if (res.writableFinished || res.destroyed) return resolve();
        res.once('finish', () => resolve());
        res.once('close', () => resolve());
      });
      // Counted from now, not from the reply, so a caller waiting on `afterReplySettled` right after
      // the answer arrives cannot miss it. The task starts one event-loop turn after the answer
      // finished, so whatever waits on that answer runs first (with a synchronous SQLite driver the
      // task's queries would otherwise hold the loop right away).
      const run: Promise<void> = sent
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(task)
        .then(
          () => undefined,
          (err: unknown) => reply.log.error({ err }, `${label} failed after the reply`),
        )
        .finally(() => pending.delete(run));
      pending.add(run);
    });

    app.decorate('afterReplySettled', async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    });

    // Hooks close in reverse order of registration: this runs before the mailer and the database go.
    // A hanging mail server must not hold a shutdown for long, so the wait is bounded.
    app.addHook('onClose', async () => {
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), CLOSE_WAIT_MS);
      });
      const outcome = await Promise.race([app.afterReplySettled(), bounded]);
      clearTimeout(timer);
      if (outcome === 'timeout') app.log.warn({ pending: pending.size }, 'closing with mails still being sent');
    });
  },
  { name: 'after-reply', dependencies: ['db', 'mailer'] },
);
