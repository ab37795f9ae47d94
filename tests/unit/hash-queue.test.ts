// The hash queue on its own, with tasks the test finishes by hand (no timing): how many run at
// once, who waits, who is refused with 503 `busy`, whose turn comes next, and that a client who
// went away is not hashed for.
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/lib/errors';
import { HashQueue } from '../../server/services/hash-queue';

/** A task that runs until the test finishes it, recording the order tasks started in. */
function taskFactory() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the queue hand the free place on.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { started, task, finish };
}

const busy = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(503);
  expect((err as ApiError).code).toBe('busy');
  expect((err as ApiError).extra.retryAfterSeconds).toBeGreaterThanOrEqual(1);
};

describe('hash queue', () => {
  it('runs at most `concurrency` hashes, queues up to `maxWaiting`, refuses the rest with 503 busy', async () => {
    const q = new HashQueue({ concurrency: 2, maxWaiting: 3, perClient: 100 });
    const { started, task, finish } = taskFactory();
    const runs = ['a', 'b', 'c', 'd', 'e'].map((n) => q.run({ address: `10.0.0.${n.charCodeAt(0)}` }, task(n)));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(q.stats()).toMatchObject({ running: 2, waiting: 3 });
    await busy(q.run({ address: '10.9.9.9' }, task('f')));
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    for (const n of ['b', 'c', 'd', 'e']) await finish(n);
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(q.stats()).toMatchObject({ running: 0, waiting: 0, started: 5 });
  });

  it('gives one client address at most `perClient` places, and other clients still get in', async () => {
    const q = new HashQueue({ concurrency: 1, maxWaiting: 10, perClient: 2 });
    const { started, task, finish } = taskFactory();
    const flood = [q.run({ address: 'flooder' }, task('f1')), q.run({ address: 'flooder' }, task('f2'))];
    await busy(q.run({ address: 'flooder' }, task('f3')));
    const other = q.run({ address: 'player' }, task('p1'));
    await finish('f1');
    // Clients take turns: the player's hash comes before the flooder's second.
    expect(started).toEqual(['f1', 'p1']);
    // A finished hash gives its place back to its client.
    const later = q.run({ address: 'flooder' }, task('f3'));
    await finish('p1');
    await finish('f2');
    await finish('f3');
    expect(await Promise.all([...flood, other, later])).toEqual(['f1', 'f2', 'p1', 'f3']);
  });

  it('lets one client run at most concurrency - 1 hashes: a thread stays free for another player', async () => {
    const q = new HashQueue({ concurrency: 2, maxWaiting: 10, perClient: 4 });
    const { started, task, finish } = taskFactory();
    const flood = ['f1', 'f2', 'f3'].map((n) => q.run({ address: 'flooder' }, task(n)));
    await Promise.resolve();
    expect(started).toEqual(['f1']);
    expect(q.stats()).toMatchObject({ running: 1, waiting: 2 });
    // The other player starts at once, without waiting for the flooder's hash.
    const other = q.run({ address: 'player' }, task('p1'));
    await Promise.resolve();
    expect(started).toEqual(['f1', 'p1']);
    await finish('f1');
    expect(started).toEqual(['f1', 'p1', 'f2']);
    for (const n of ['p1', 'f2', 'f3']) await finish(n);
    expect(await Promise.all([...flood, other])).toEqual(['f1', 'f2', 'f3', 'p1']);
  });

  it('serves the client served longest ago first, not in arrival order', async () => {
    const q = new HashQueue({ concurrency: 1, maxWaiting: 10, perClient: 10 });
    const { started, task, finish } = taskFactory();
    const runs = [
      q.run({ address: 'A' }, task('a1')),
      q.run({ address: 'A' }, task('a2')),
      q.run({ address: 'A' }, task('a3')),
      q.run({ address: 'B' }, task('b1')),
      q.run({ address: 'C' }, task('c1')),
    ];
    for (const n of ['a1', 'b1', 'c1', 'a2', 'a3']) await finish(n);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    await Promise.all(runs);
  });

  it('does not hash for a client that went away while waiting', async () => {
    const q = new HashQueue({ concurrency: 1, maxWaiting: 10, perClient: 10 });
    const { started, task, finish } = taskFactory();
    let gone = false;
    const first = q.run({ address: 'A' }, task('a1'));
    const waiting = q.run({ address: 'B', gone: () => gone }, task('b1'));
    const next = q.run({ address: 'C' }, task('c1'));
    gone = true;
    await finish('a1');
    await expect(waiting).rejects.toThrow(/went away/);
    expect(started).toEqual(['a1', 'c1']);
    await finish('c1');
    await Promise.all([first, next]);
    expect(q.stats()).toMatchObject({ running: 0, waiting: 0, started: 2 });
  });
});
