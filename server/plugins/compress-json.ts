// Compression of the API's JSON answers in one synchronous call. @fastify/compress turns every
// answer into a stream pipeline with a fresh compressor: for a 4 KB page of sessions that plumbing
// cost more CPU than the compression itself (`npm run bench`). JSON answers are strings of a few
// KB, so compressing them at once is cheaper and blocks for tens of microseconds; anything else
// (static files, streams, big strings) still goes through @fastify/compress, whose hook this one
// calls in that case. Registering @fastify/compress happens here too, so the two stay one hook.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { listOf } from '../lib/one-or-many';

/** Smaller answers go out as they are. */
export const COMPRESS_MIN_BYTES = 1024;
/** Bigger answers are compressed off the main thread by @fastify/compress. */
export const COMPRESS_MAX_BYTES = 64 * 1024;
/**
 * Brotli quality 3 with a window just big enough for the answer: on a 4 KB page of sessions it
 * writes 1 % more bytes than quality 4 with an 18-bit window, for about half the CPU (the window
 * the answer fits in loses nothing, and a bigger one costs setting up).
 */
const BROTLI_QUALITY = 3;
const windowBits = (bytes: number) =>
  Math.min(24, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 16))));
const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** The best encoding the client accepts (RFC 9110 §12.5.3 q-values), preferring ours in order. */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const encoding of ENCODINGS) {
    const value = q.get(encoding) ?? q.get('*') ?? 0;
    if (value > bestQ) {
      best = encoding;
      bestQ = value;
    }
  }
  return best;
}

/** A JSON answer of `bytes` bytes, compressed as the API sends it (the bench's limit routes call it too). */
export function compressedJson(payload: string, bytes: number, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(payload, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: windowBits(bytes),
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(payload, { level: 6 });
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const values = vary === undefined ? [] : Array.isArray(vary) ? vary : [String(vary)];
  if (!values.some((v) => v.toLowerCase().includes('accept-encoding')))
    reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

type Done = (err: Error | null, value?: unknown) => void;

/**
 * The JSON answer compressed, or null when this leaves the answer to @fastify/compress (not a JSON
 * string, too big for one synchronous call, no encoding of ours accepted, already encoded).
 */
function compressJson(request: FastifyRequest, reply: FastifyReply, payload: string): Buffer | null {
  if (request.headers['x-no-compression'] !== undefined) return null;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json') || reply.hasHeader('content-encoding'))
    return null;
  const bytes = Buffer.byteLength(payload);
  if (bytes < COMPRESS_MIN_BYTES || bytes > COMPRESS_MAX_BYTES) return null;
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return null;
  const body = compressedJson(payload, bytes, encoding);
  addVary(reply);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return body;
}

/**
 * One onSend hook for both: JSON strings compressed here, everything else handed to
 * @fastify/compress's own hook (`theirs`). An answer under COMPRESS_MIN_BYTES (most API answers) goes out as
 * it is at once: @fastify/compress leaves those alone too (its threshold), and as a hook of its own
 * it cost every call a pass through its checks and through Fastify's hook runner (`npm run bench`).
 */
function compressionHook(theirs: onSendHookHandler | undefined): onSendHookHandler {
  return function compressAnswer(this: FastifyInstance, request, reply, payload, done: Done) {
    if (typeof payload === 'string') {
      if (payload.length < COMPRESS_MIN_BYTES / 3) return done(null, payload);
      const body = compressJson(request, reply, payload);
      if (body) return done(null, body);
      if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return done(null, payload);
    }
    if (!theirs) return done(null, payload);
    (theirs as (this: FastifyInstance, ...args: unknown[]) => void).call(this, request, reply, payload, done);
  } as onSendHookHandler;
}

/**
 * Registers @fastify/compress with `options`, and with it the JSON compression above, on every
 * route registered from now on. Route-level onSend hooks run after the app-level ones, so the
 * Idempotency-Key layer still stores the plain JSON.
 */
export async function registerCompression(
  app: FastifyInstance,
  options: Omit<FastifyCompressOptions, 'threshold'>,
): Promise<void> {
  const before = new WeakMap<object, { onSend: number; onRequest: number }>();
  app.addHook('onRoute', (route) => {
    before.set(route, { onSend: listOf(route.onSend).length, onRequest: listOf(route.onRequest).length });
    // GET and HEAD bodies are never read (Fastify routes them without parsing one), so their
    // decompression hook would only cost time.
    const methods = listOf(route.method);
    if (route.decompress === undefined && methods.every((m) => m === 'GET' || m === 'HEAD')) {
      route.decompress = false;
    }
  });
  // Its threshold is ours: an answer under it is sent as it is without asking it (compressAnswer).
  await app.register(compress, { ...options, threshold: COMPRESS_MIN_BYTES });
  // @fastify/compress has appended its onSend hook (unless the route turned compression off), and an
  // onRequest hook that only hands the reply `reply.compress()`, which nothing here calls: dropped,
  // it is one hook fewer on every request.
  app.addHook('onRoute', (route) => {
    const counts = before.get(route);
    const hooks = listOf(route.onSend);
    const mine = hooks.slice(0, counts?.onSend ?? hooks.length);
    const theirs = hooks.slice(mine.length);
    if (theirs.length > 1)
      throw new Error('@fastify/compress added more than one onSend hook: compress-json.ts must learn which is which');
    route.onSend = [...mine, compressionHook(theirs[0])];
    const onRequest = listOf(route.onRequest);
    if (onRequest.length > (counts?.onRequest ?? onRequest.length) + 1)
      throw new Error(
        '@fastify/compress added more than one onRequest hook: compress-json.ts must learn which is which',
      );
    const kept = onRequest.slice(0, counts?.onRequest ?? onRequest.length);
    route.onRequest = kept.length > 0 ? kept : undefined;
  });
}
