// The two lines Fastify writes for every request at info, "incoming request" and "request
// completed", written straight to the log's stream in the JSON pino writes for them. Through pino
// they cost a child logger per request (made only to hold reqId, the Idempotency-Key and the
// player), its serialisers and its generic writer: the better part of what logging at the default
// level added to a hot read (`npm run bench`, issue 25). Every other line of a request, and these
// two whenever the request's logger is no longer the lazy stand-in (lib/lazy-logger.ts), still go
// through pino; tests/api/request-lines.test.ts holds both ways to the same JSON.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import { jsonString } from './json-string';
import { LazyLogger } from './lazy-logger';
import { requestSerializer } from './log-redaction';

/** JSON.stringify(requestSerializer(request)), written by hand: the keys in the serializer's order, undefined ones left out. */
function requestJson(request: FastifyRequest): string {
  const r = requestSerializer(request);
  let json = `{"method":${jsonString(r.method)},"url":${jsonString(r.url)}`;
  if (r.version !== undefined) json += `,"version":${jsonString(r.version)}`;
  if (r.host !== undefined) json += `,"host":${jsonString(r.host)}`;
  if (r.remoteAddress !== undefined) json += `,"remoteAddress":${jsonString(r.remoteAddress)}`;
  if (r.remotePort !== undefined) json += `,"remotePort":${JSON.stringify(r.remotePort)}`;
  return `${json}}`;
}

export interface LogSink {
  write(line: string): void;
}

export class RequestLines extends LogController {
  #root: pino.Logger | null = null;
  #sink: LogSink | null = null;
  /** `,"pid":…,"hostname":"…"`: what the root logger writes after the time on every line. */
  #base = '';

  /** From now on the two lines go to `sink`, the stream `root` (the app's logger) writes to. */
  attach(root: pino.Logger, sink: LogSink): void {
    this.#root = root;
    this.#sink = sink;
    this.#base = (root as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
  }

  /** The request's own lazy logger while no line made it a pino child, when info is on; else null. */
  #lazy(request: FastifyRequest): LazyLogger | null {
    const log = request.log;
    return this.#root?.isLevelEnabled('info') && log instanceof LazyLogger && !log.materialised ? log : null;
  }

  #line(log: LazyLogger, fields: string, msg: string): void {
    this.#sink!.write(`{"level":30,"time":${Date.now()}${this.#base}${log.bindingsJson()}${fields},"msg":"${msg}"}\n`);
  }
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const log = this.#lazy(request);
    if (!log) return super.incomingRequest(request, reply);
    this.#line(log, `,"req":${requestJson(request)}`, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // The reply logs with the request's logger (lib/request-log.ts keeps them one).
    const log = error || reply.log !== request.log ? null : this.#lazy(request);
    if (!log) return super.requestCompleted(error, request, reply);
    this.#line(
      log,
      `,"res":{"statusCode":${reply.statusCode}},"responseTime":${JSON.stringify(reply.elapsedTime)}`,
      'request completed',
    );
  }
}
