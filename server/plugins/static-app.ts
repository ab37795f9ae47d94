// Serves the built PWA on the API's origin. Hashed assets are immutable; index.html, the service
// worker and the manifest are revalidated every time so a deploy reaches players at once. Client
// routes fall back to app.html, the build's shell without a prerendered page (but /blog to blog.html,
// the build's prerendered blog list; to index.html, the landing, where the build wrote neither);
// /api/*, /metrics and missing files never do. A known path called
// with another method answers 405 with Allow (lib/method-not-allowed.ts). The build writes a
// .br (quality 11) and .gz (level 9) beside each file (scripts/vite-plugin-precompress.ts): those
// are sent as they are (`preCompressed`), so @fastify/compress only ever compresses API answers.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { allowedMethods } from '../lib/method-not-allowed';

/** Paths that are never the app's: the API, and /metrics (served on METRICS_PORT only: here a plain 404, not the app). */
const SERVER_PATH = /^\/(api|metrics)(\/|$)/;
const NO_CACHE =
  /(^|\/)(index\.html|blog\.html|app\.html|sw\.js|registerSW\.js|manifest(\.ru)?\.webmanifest)$|^\/locales\//;
/** The blog's list, prerendered into its own HTML file (scripts/vite-plugin-prerender.ts). */
const BLOG_PAGE = /^\/blog\/?$/;
/** The precompressed copy's suffix: its headers are those of the file it stands for. */
const ENCODED_COPY = /\.(br|gz)$/;

export default fp(async function staticApp(app: FastifyInstance, opts: { root: string | null }) {
  const root = opts.root && existsSync(join(opts.root, 'index.html')) ? opts.root : null;
  const blogPage = root !== null && existsSync(join(root, 'blog.html'));
  const shell = root !== null && existsSync(join(root, 'app.html')) ? 'app.html' : 'index.html';
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      // '/' is a directory: without an index file @fastify/static answers it 403.
      index: ['index.html'],
      cacheControl: false,
      preCompressed: true,
      setHeaders(res, path) {
        const rel = path.slice(root.length).replace(/\\/g, '/').replace(ENCODED_COPY, '');
        // Which copy is sent depends on Accept-Encoding: caches must keep them apart.
        res.header('Vary', 'Accept-Encoding');
        if (rel.startsWith('/assets/')) res.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (NO_CACHE.test(rel)) res.header('Cache-Control', 'no-cache');
        else res.header('Cache-Control', 'public, max-age=3600');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (
      root &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !SERVER_PATH.test(path) &&
      !/\.[a-z0-9]+$/i.test(path)
    ) {
      const page = blogPage && BLOG_PAGE.test(path) ? 'blog.html' : shell;
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile(page, root);
    }
    // Unknown routes have a tight limit of their own (plugins/rate-limits.ts): scanners live on 404s.
    await app.limitNotFound(request);
    const allowed = allowedMethods(app, request.url);
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send({
          detail: `${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}`,
          code: 'method_not_allowed',
        });
    }
    return reply.status(404).send({ detail: `No route ${request.method} ${path}`, code: 'not_found' });
  });
});
