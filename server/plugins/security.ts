// Security headers and compression. The CSP allows what the sign-in flows load on demand: Google's
// Identity Services script and the wallet SDK's relay.
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { compressJsonAnswers } from './compress-json';

export default fp(async function security(app: FastifyInstance) {
  // Built once: @fastify/helmet rebuilt this middleware, CSP parsing included, on every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com', "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'https:', 'wss:'],
        frameSrc: ["'self'", 'https://accounts.google.com'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()));
  compressJsonAnswers(app);
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024,
    // Quality 11 (the default) costs more CPU per API answer than it saves bytes.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
}, { name: 'security' });
