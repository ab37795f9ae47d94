// A small queue in front of password hashing. scrypt at OWASP cost takes 128 MiB and a few hundred
// milliseconds on libuv's thread pool, which has 4 threads per process and also reads files and
// resolves DNS: a burst of sign-ins used to take every thread, so pages, static files and other
// players' calls waited behind it. Here at most `concurrency` hashes run at once (the other
// threads stay free), at most `maxWaiting` wait, and one client address holds at most `perClient`
// places (running or waiting) and runs at most `concurrency - 1` of them (a thread stays free for
// everyone else); the waiting client served longest ago goes next, so a flood from one address
// does not push other players' sign-ins back. Anything beyond that is refused at once with 503
// `busy`. A sign-in from a known device of the account (services/known-devices.ts) waits in a lane
// of its own (KNOWN_DEVICE_LANE places, keyed by the device) and goes before everyone else, so a
// flood from elsewhere cannot queue the owner out (decisions §13).
// One queue per process, like the thread pool it protects.
import type { FastifyRequest } from 'fastify';
import { serverBusy } from '../lib/errors';
import { clientKey } from '../lib/client-key';

export interface HashQueueOptions {
  /** Hashes running at once (HASH_CONCURRENCY). */
  concurrency: number;
  /** Hashes waiting for a turn, all clients together (HASH_QUEUE). */
  maxWaiting: number;
  /** Places (running or waiting) one client address may hold (HASH_QUEUE_PER_CLIENT). */
  perClient: number;
}

export const HASH_QUEUE_DEFAULTS: HashQueueOptions = { concurrency: 2, maxWaiting: 32, perClient: 4 };
/** Places waiting in the known devices' lane, besides `maxWaiting`. */
export const KNOWN_DEVICE_LANE = 8;

/** Who asks for a hash: the client address for the fair share, and whether it is still there. */
export interface HashClient {
  address: string;
  /** A known device of the account signing in: `address` names the device, and it takes the known lane. */
  knownDevice?: boolean;
  /** True once the client went away: its hash is skipped when its turn comes. */
  gone?: () => boolean;
}

/** The client of a request: its address (as TRUST_PROXY makes it) and its connection. */
export function hashClientOf(request: FastifyRequest): HashClient {
  const socket = request.raw.socket as { destroyed?: boolean } | undefined;
  // IPv6 per /64 (lib/client-key.ts): the addresses of one subscriber share one client's places.
  return { address: clientKey(request.ip), gone: () => socket?.destroyed === true };
}

export class HashQueue {
  private running = 0;
  private waitingCount = 0;
  /** Waiting jobs per client, clients in the order they started waiting. */
  private readonly waiting = new Map<string | symbol, (() => void)[]>();
  private readonly held = new Map<string | symbol, number>();
  /** When each client holding places was last served (a turn counter): the longest unserved goes next. */
  private readonly lastServed = new Map<string | symbol, number>();
  private readonly runningBy = new Map<string | symbol, number>();
  /** Clients holding places in the known devices' lane, and how many of theirs wait. */
  private readonly known = new Set<string | symbol>();
  private knownWaiting = 0;
  private turn = 0;
  /** Recent hash duration (ms), for the Retry-After estimate. */
  private averageMs = 300;
  private started = 0;

  constructor(private options: HashQueueOptions = HASH_QUEUE_DEFAULTS) {}

  configure(options: HashQueueOptions): void {
    this.options = options;
    this.pump();
  }

  /** Counters for tests and diagnostics. */
  stats() {
    return { running: this.running, waiting: this.waitingCount, started: this.started };
  }

  /** Runs `task` when its turn comes; throws 503 `busy` when the queue or the client's share is full. */
  async run<T>(who: HashClient | undefined, task: () => Promise<T>): Promise<T> {
    // Calls that name no client (internal ones) only meet the overall caps.
    const client: string | symbol = who?.address ?? Symbol('unattributed');
    const { maxWaiting, perClient } = this.options;
    const held = this.held.get(client) ?? 0;
    const lane = who?.knownDevice === true;
    const laneFull = lane
      ? this.knownWaiting >= KNOWN_DEVICE_LANE
      : this.waitingCount - this.knownWaiting >= maxWaiting;
    if (held >= perClient || (!this.canStart(client) && laneFull)) throw serverBusy(this.retryAfterSeconds());
    this.held.set(client, held + 1);
    if (lane) this.known.add(client);
    try {
      // Whoever waits now is at its running share or has no free thread, so an eligible newcomer jumps no one.
      if (this.canStart(client)) this.occupy(client);
      else await this.wait(client);
      let t0 = 0;
      try {
        if (who?.gone?.()) throw clientGone();
        this.started++;
        t0 = Date.now();
        return await task();
      } finally {
        if (t0) this.averageMs = 0.8 * this.averageMs + 0.2 * (Date.now() - t0);
        this.running--;
        const running = (this.runningBy.get(client) ?? 1) - 1;
        if (running > 0) this.runningBy.set(client, running);
        else this.runningBy.delete(client);
        this.pump();
      }
    } finally {
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else {
        this.held.delete(client);
        this.lastServed.delete(client);
        this.known.delete(client);
      }
    }
  }

  private wait(client: string | symbol): Promise<void> {
    return new Promise<void>((resolve) => {
      const jobs = this.waiting.get(client);
      if (jobs) jobs.push(resolve);
      else this.waiting.set(client, [resolve]);
      this.waitingCount++;
      if (this.known.has(client)) this.knownWaiting++;
    });
  }

  /** A free thread, and the client runs fewer than `concurrency - 1` (at least 1) hashes. */
  private canStart(client: string | symbol): boolean {
    const share = Math.max(1, this.options.concurrency - 1);
    return this.running < this.options.concurrency && (this.runningBy.get(client) ?? 0) < share;
  }

  /** Takes a thread for `client` and stamps its turn. */
  private occupy(client: string | symbol): void {
    this.running++;
    this.runningBy.set(client, (this.runningBy.get(client) ?? 0) + 1);
    this.lastServed.set(client, ++this.turn);
  }

  /**
   * Starts waiting jobs while threads are free. Next is the waiting client (below its running
   * share) served longest ago or never, the one waiting longest on a tie: a flooding client waits
   * behind everyone else's turn. Known devices go first.
   */
  private pump(): void {
    while (this.running < this.options.concurrency && this.waitingCount > 0) {
      let next: [string | symbol, (() => void)[]] | null = null;
      for (const entry of this.waiting) {
        if (!this.canStart(entry[0])) continue;
        if (!next || this.goesBefore(entry[0], next[0])) next = entry;
      }
      if (!next) return;
      const [client, jobs] = next;
      const start = jobs.shift()!;
      this.waiting.delete(client);
      if (jobs.length > 0) this.waiting.set(client, jobs);
      this.waitingCount--;
      if (this.known.has(client)) this.knownWaiting--;
      this.occupy(client);
      start();
    }
  }

  private goesBefore(a: string | symbol, b: string | symbol): boolean {
    const knownA = this.known.has(a);
    if (knownA !== this.known.has(b)) return knownA;
    return (this.lastServed.get(a) ?? 0) < (this.lastServed.get(b) ?? 0);
  }

  private retryAfterSeconds(): number {
    const rounds = Math.ceil((this.waitingCount + 1) / Math.max(1, this.options.concurrency));
    return Math.min(60, Math.max(1, Math.ceil((rounds * this.averageMs) / 1000)));
  }
}

/** Not an answer anyone reads: the client has gone. */
class ClientGoneError extends Error {
  // 499 (nginx's "client closed request"): a 4xx, so it is not logged as a fault.
  readonly statusCode = 499;
}
const clientGone = () => new ClientGoneError('client went away before its hash started');

/** The process's queue, configured from the environment when the app is built. */
export const hashQueue = new HashQueue();
