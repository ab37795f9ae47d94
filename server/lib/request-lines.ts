// The two lines Fastify writes for every request at info, "incoming request" and "request
// completed", written straight to the log's stream in the JSON pino writes for them. Through pino
// they cost a child logger per request (made only to hold reqId, the Idempotency-Key and the
// player), its serialisers and its generic writer: the better part of what logging at the default
// level added to a hot read (`npm run bench`, issue 25). Every other line of a request, and these
// two whenever the request's logger is no longer the lazy stand-in (lib/lazy-logger.ts), still go
// through pino; tests/api/request-lines.test.ts holds both ways to the same JSON.
// A request only notes what its lines say (the values; no line is built); the lines are made when
// the log's batch is put together (lib/log-output.ts), hundreds in one loop. Made one by one between
// requests the same lines cost a hot read about 5 µs of CPU more on the 2-core machine, several
// times what they cost in a loop of their own (`npm run bench`, issue 25). A stream that does not
// batch gets each line at once.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import { jsonString, lastJsonString } from './json-string';
import { bindingsJson, LazyLogger } from './lazy-logger';
import { redactUrl } from './log-redaction';
import type { LineMaker } from './log-output';

export interface LogSink {
  write(line: string): void;
  /** A stream that writes in batches makes the lines then (lib/log-output.ts). */
  defer?(maker: LineMaker): (full: boolean) => void;
}

const INCOMING = 0;
const COMPLETED = 1;
/** Slots a request's line takes in the queue: what it is, its time, its bindings, then its own values. */
const INCOMING_SLOTS = 9;
const COMPLETED_SLOTS = 5;
/**
 * The queue holds this many slots (over 1,000 requests), then its lines are made: a busy server's
 * lines are made once per batch of the log (BATCH_MS), the fewer times the better (/auth/me against its
 * limit route, medians of 4 turns on the 2-core machine: 0.70× with 700 slots, 0.77× with 4,096, 0.79× with these).
 */
const QUEUE_SLOTS = 16 * 1024;

// What most requests share with the one before (the method, the URL, the host, the address) is
// made into JSON once, as the request comes: a line made later finds one string the batch's lines
// share rather than the request's own (0.78× of the limit route for /auth/me against 0.74×,
// medians of 5 turns on the 2-core machine).
const methodJson = lastJsonString();
const hostJson = lastJsonString();
const addressJson = lastJsonString();
/** The URL as the request line writes it: mailed tokens redacted (lib/log-redaction.ts), as JSON. */
const urlJson = lastJsonString((url) => jsonString(redactUrl(url)));

/**
 * JSON.stringify(requestSerializer(request)) of lib/log-redaction.ts, written by hand: the keys in
 * its order, undefined ones left out. All but the version and port come as JSON already.
 */
function requestJson(
  method: string,
  url: string,
  version: string | undefined,
  host: string | undefined,
  remoteAddress: string | undefined,
  remotePort: number | undefined,
): string {
  let json = `{"method":${method},"url":${url}`;
  if (version !== undefined) json += `,"version":${jsonString(version)}`;
  if (host !== undefined) json += `,"host":${host}`;
  if (remoteAddress !== undefined) json += `,"remoteAddress":${remoteAddress}`;
  if (remotePort !== undefined) json += `,"remotePort":${JSON.stringify(remotePort)}`;
  return `${json}}`;
}

export class RequestLines extends LogController implements LineMaker {
  #root: pino.Logger | null = null;
  #sink: LogSink | null = null;
  /** `,"pid":…,"hostname":"…"`: what the root logger writes after the time on every line. */
  #base = '';
  /** What the waiting lines say, one after the other (INCOMING_SLOTS or COMPLETED_SLOTS each). */
  readonly #queue: unknown[] = new Array<unknown>(QUEUE_SLOTS).fill(0);
  #used = 0;
  /** The batching stream's call for "lines are waiting"; null: each line is written at once. */
  #waiting: ((full: boolean) => void) | null = null;

  /** From now on the two lines go to `sink`, the stream `root` (the app's logger) writes to. */
  attach(root: pino.Logger, sink: LogSink): void {
    this.#root = root;
    this.#sink = sink;
    this.#base = (root as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
    this.#waiting = sink.defer?.(this) ?? null;
  }

  /** The request's own lazy logger while no line made it a pino child, when info is on; else null. */
  #lazy(request: FastifyRequest): LazyLogger | null {
    const log = request.log;
    return this.#root?.isLevelEnabled('info') && log instanceof LazyLogger && !log.materialised ? log : null;
  }

  /** The index a line of `slots` slots goes to, after the waiting lines are made when it would not fit. */
  #slot(slots: number): number {
    if (this.#used + slots > QUEUE_SLOTS) this.#waiting!(true);
    const at = this.#used;
    this.#used = at + slots;
    return at;
  }

  /** The line just noted is made now when the stream does not batch; the stream hears of the first waiting one. */
  #noted(at: number): void {
    if (this.#waiting === null) this.drain((line) => this.#sink!.write(line));
    else if (at === 0) this.#waiting(false);
  }

  drain(write: (line: string) => void): void {
    const q = this.#queue;
    const used = this.#used;
    this.#used = 0;
    for (let i = 0; i < used;) {
      const head = `{"level":30,"time":${q[i + 1] as number}${this.#base}${bindingsJson(q[i + 2] as Record<string, unknown>)}`;
      if (q[i] === INCOMING) {
        const req = requestJson(
          q[i + 3] as string,
          q[i + 4] as string,
          q[i + 5] as string | undefined,
          q[i + 6] as string | undefined,
          q[i + 7] as string | undefined,
          q[i + 8] as number | undefined,
        );
        write(`${head},"req":${req},"msg":"incoming request"}\n`);
        i += INCOMING_SLOTS;
      } else {
        write(
          `${head},"res":{"statusCode":${q[i + 3] as number}},"responseTime":${JSON.stringify(q[i + 4])},"msg":"request completed"}\n`,
        );
        i += COMPLETED_SLOTS;
      }
    }
    // The strings and bindings noted are let go.
    q.fill(0, 0, used);
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const log = this.#lazy(request);
    if (!log) return super.incomingRequest(request, reply);
    const at = this.#slot(INCOMING_SLOTS);
    const q = this.#queue;
    q[at] = INCOMING;
    q[at + 1] = Date.now();
    q[at + 2] = log.currentBindings;
    // What requestSerializer (lib/log-redaction.ts) reads.
    q[at + 3] = methodJson(request.method);
    q[at + 4] = urlJson(request.url);
    q[at + 5] = request.headers?.['accept-version']?.toString();
    const host = request.host;
    q[at + 6] = host === undefined ? undefined : hostJson(host);
    const address = request.ip;
    q[at + 7] = address === undefined ? undefined : addressJson(address);
    q[at + 8] = request.socket?.remotePort;
    this.#noted(at);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // The reply logs with the request's logger (lib/request-log.ts keeps them one).
    const log = error || reply.log !== request.log ? null : this.#lazy(request);
    if (!log) return super.requestCompleted(error, request, reply);
    const at = this.#slot(COMPLETED_SLOTS);
    const q = this.#queue;
    q[at] = COMPLETED;
    q[at + 1] = Date.now();
    q[at + 2] = log.currentBindings;
    q[at + 3] = reply.statusCode;
    q[at + 4] = reply.elapsedTime;
    this.#noted(at);
  }
}
