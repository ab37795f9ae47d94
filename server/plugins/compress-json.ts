// Compression of the API's JSON answers in one synchronous call. @fastify/compress turns every
// answer into a stream pipeline with a fresh compressor: for a 4 KB page of sessions that plumbing
// cost more CPU than the compression itself (`npm run bench`). JSON answers are strings of a few
// KB, so compressing them at once is cheaper and blocks for tens of microseconds; anything else
// (static files, streams, big strings) still goes through @fastify/compress, which sees the
// Content-Encoding set here and leaves these answers alone.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

const MIN_BYTES = 1024;
/** Bigger answers are compressed off the main thread by @fastify/compress. */
const MAX_BYTES = 64 * 1024;
/**
 * Brotli quality 3 with a window just big enough for the answer: on a 4 KB page of sessions it
 * writes 1 % more bytes than quality 4 with an 18-bit window, for about half the CPU (the window
 * the answer fits in loses nothing, and a bigger one costs setting up).
 */
const BROTLI_QUALITY = 3;
const windowBits = (bytes: number) => Math.min(24, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 16))));
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

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

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const values = vary === undefined ? [] : Array.isArray(vary) ? vary : [String(vary)];
  if (!values.some((v) => v.toLowerCase().includes('accept-encoding'))) reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

const compressJson: onSendHookHandler = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void) => {
  if (typeof payload !== 'string' || payload.length < MIN_BYTES / 3 || request.headers['x-no-compression'] !== undefined) return done(null, payload);
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json') || reply.hasHeader('content-encoding')) return done(null, payload);
  const bytes = Buffer.byteLength(payload);
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) return done(null, payload);
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return done(null, payload);
  const body = encoding === 'br'
    ? brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: windowBits(bytes), [constants.BROTLI_PARAM_SIZE_HINT]: bytes, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
    : gzipSync(payload, { level: 6 });
  addVary(reply);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  done(null, body);
};

/**
 * Adds the JSON compression to every route registered from now on, as a route-level onSend hook:
 * those run after the app-level ones, so the Idempotency-Key layer still stores the plain JSON.
 * Call it before registering @fastify/compress, whose route-level hook must come after this one.
 */
export function compressJsonAnswers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...existing, compressJson];
  });
}
