// Prometheus metrics (decisions §12). The counters live in `app.metrics` (one registry per app,
// lib/metrics.ts) and the code where things happen moves them. With METRICS_PORT set, a listener of
// its own serves GET /metrics on METRICS_HOST (default HOST): never on the public port, where
// /metrics is an unknown route like any other, so a proxy that forwards everything cannot leak it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics } from 'prom-client';
import { createMetrics, type Metrics } from '../lib/metrics';
import { postings } from '../services/ledger';

export type AppMetrics = Metrics & {
  /** Where the metrics listener listens; null when METRICS_PORT is unset (or before the app is ready). */
  address(): AddressInfo | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** The route label of requests no route matched (404s, malformed URLs). */
const UNMATCHED = 'unmatched';

function metricsServer(app: FastifyInstance, metrics: Metrics): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err) => {
        app.log.error({ err }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n');
      },
    );
  });
}

export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    const metrics = createMetrics();
    const listen = app.config.metrics;
    const server = listen ? metricsServer(app, metrics) : null;
    app.decorate('metrics', { ...metrics, address: () => (server?.address() as AddressInfo | null) ?? null });

    // By the route's pattern (`/api/v1/auth/confirm-email/:token/`), never the URL with its token.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.httpDuration.observe(
        request.method,
        request.routeOptions.url ?? UNMATCHED,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    // Counted after the posting's transaction committed: a rolled-back payment moved no money.
    const unsubscribe = app.dbHooks.on(postings, (p) =>
      metrics.ledgerPostings.inc({ currency: p.currency, reason: p.reason }),
    );
    app.addHook('onClose', async () => unsubscribe());

    if (!listen || !server) return;
    // Process metrics (CPU, memory, event loop, GC) only when someone can read them: each call
    // starts its own event-loop monitor, and tests build hundreds of apps.
    collectDefaultMetrics({ register: metrics.registry });
    server.on('error', (err) => app.log.error({ err }, 'metrics listener failed'));
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listen.port, listen.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { address, port } = server.address() as AddressInfo;
      app.log.info(`metrics on http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`);
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scraper keeps its connection alive between scrapes: it must not hold the shutdown.
      server.closeAllConnections();
      await closed;
    });
  },
  { name: 'metrics', dependencies: ['config', 'db'] },
);
