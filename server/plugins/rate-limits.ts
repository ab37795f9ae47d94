// Request-rate limits at the edge (decisions §12), with @fastify/rate-limit's counting. Every request
// falls in ONE class, counted per minute under one key:
//  - sign-in calls (routes with `config: { signIn: true }`: Google, refresh, wallet and e-mail login,
//    register, password reset and the other token links): per client address and route, tight,
//    since each one costs a call to Google, a password hash or a mail, and answers no player yet;
//  - other API calls: per player when the bearer token is valid (the limit follows the player from
//    address to address, and players behind one carrier NAT do not share it), else per address;
//  - the app's files and client routes: per address, generous (a first visit loads dozens); hashed
//    files under /assets/ are not counted (immutable: a browser fetches each once per deploy);
//  - unknown routes (answered 404): per address, tight, counted where the 404 is decided;
//  - the probes are never limited.
// Beyond a limit: 429 `rate_limited` with Retry-After. With DATABASE_URL the counters live in
// PostgreSQL so every process shares them (services/rate-limit-store.ts). RATE_LIMITS=off turns all
// this off; the sign-in attempt limits (services/throttle.ts) and the sign-up limit are separate.
import fastifyRateLimit, { type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE } from '@shared/constants';
import { clientKey } from '../lib/client-key';
import { rateLimited } from '../lib/errors';
import { databaseRateLimitStore } from '../services/rate-limit-store';

/** Requests per minute (before RATE_LIMIT_FACTOR); docs/operating.md says why these numbers. */
export const RATE_LIMITS_PER_MINUTE = {
  /** Signed-in API calls, per player. The app makes a few per screen; 5 a second sustained is a script. */
  player: 300,
  /** Anonymous API calls, per client address (config, blog, ICO figures before signing in). */
  address: 300,
  /** Each sign-in call, per address and route, unless named below. */
  signIn: 20,
  /** POST /auth/google/: each one makes two calls to Google. */
  google: 10,
  /** POST /auth/refresh/: every signed-in client renews its access token every 15 minutes. */
  refresh: 60,
  /** Files of the app and client routes, per address (hashed /assets/ are not counted). */
  staticFiles: 1200,
  /** Answers 404 (scanners probing for /wp-login.php, /.env …), per address. */
  notFound: 30,
} as const;

const WINDOW_MS = 60_000;
/** Keys each in-memory counter keeps (least recently used go first): about 100 bytes each. */
const MEMORY_KEYS = 50_000;
/** Never limited: load balancers and orchestrators call them every few seconds. */
const UNLIMITED = new Set(['/healthz', '/readyz']);
/** A built file under /assets/ (names like index-3f2a1b.js; no `..` or sub-folder gets through). */
const HASHED_ASSET = /^\/assets\/[\w-]+(\.[\w-]+)+(\?|$)/;
const SIGN_IN_EXCEPTIONS: Record<string, number> = {
  [`POST ${API_BASE}/auth/google/`]: RATE_LIMITS_PER_MINUTE.google,
  [`POST ${API_BASE}/auth/refresh/`]: RATE_LIMITS_PER_MINUTE.refresh,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A caller that proves itself at the edge, cheaply (a webhook's secret header), is not counted:
     * the Telegram webhook's bursts come from a few of Telegram's addresses. Others are counted as usual.
     */
    rateLimitExempt?: (request: FastifyRequest) => boolean;
  }
  interface FastifyInstance {
    /** Counts an answer 404 against the unknown-route limit; throws 429 beyond it (a no-op with RATE_LIMITS=off). */
    limitNotFound(request: FastifyRequest): Promise<void>;
  }
}

/** IPv6 clients are counted per /64, the block one subscriber usually gets (the one rule of lib/client-key.ts). */
const address = (request: FastifyRequest) => clientKey(request.ip);
const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url}`;

export default fp(
  async function rateLimits(app: FastifyInstance) {
    if (!app.config.rateLimits) {
      app.decorate('limitNotFound', async () => {});
      return;
    }
    const shared = app.dialect === 'postgres' ? databaseRateLimitStore(app.db, app.log) : null;
    if (shared) app.addHook('onClose', () => shared.settled());
    // global: false — the classes below pick the limiter; the plugin adds no hook of its own.
    // skipOnError: a database that does not answer lets requests through rather than refusing all.
    await app.register(fastifyRateLimit, {
      global: false,
      skipOnError: true,
      ...(shared ? { store: shared.Store } : {}),
    });

    const factor = app.config.rateLimitFactor;
    const scaled = (max: number) => Math.max(1, Math.floor(max * factor));
    const limiter = (options: CreateRateLimitOptions) =>
      app.createRateLimit({ timeWindow: WINDOW_MS, ...options, cache: MEMORY_KEYS } as CreateRateLimitOptions);

    const player = limiter({ max: scaled(RATE_LIMITS_PER_MINUTE.player), keyGenerator: (r) => `player:${r.userId}` });
    const anonymous = limiter({ max: scaled(RATE_LIMITS_PER_MINUTE.address), keyGenerator: (r) => `ip:${address(r)}` });
    const signIn = limiter({
      max: (r) => scaled(SIGN_IN_EXCEPTIONS[routeOf(r)] ?? RATE_LIMITS_PER_MINUTE.signIn),
      keyGenerator: (r) => `signin:${routeOf(r)}:${address(r)}`,
    });
    const staticFiles = limiter({
      max: scaled(RATE_LIMITS_PER_MINUTE.staticFiles),
      keyGenerator: (r) => `static:${address(r)}`,
    });
    const notFound = limiter({
      max: scaled(RATE_LIMITS_PER_MINUTE.notFound),
      keyGenerator: (r) => `404:${address(r)}`,
    });

    async function enforce(limit: typeof player, request: FastifyRequest): Promise<void> {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) throw rateLimited(Math.max(1, result.ttlInSeconds));
    }

    function classOf(request: FastifyRequest): typeof player | null {
      // Unknown routes are counted by limitNotFound, once the not-found handler has decided on a 404.
      if (request.is404) return null;
      const url = request.routeOptions.url ?? '';
      if (UNLIMITED.has(url)) return null;
      if (request.routeOptions.config?.rateLimitExempt?.(request) === true) return null;
      if (request.routeOptions.config?.signIn === true) return signIn;
      if (url === '/api' || url.startsWith('/api/')) return request.userId !== null ? player : anonymous;
      // What is left is @fastify/static's route: the app's files and client routes.
      return HASHED_ASSET.test(request.url) ? null : staticFiles;
    }

    // Behind a proxy without TRUST_PROXY, every client is the proxy's address and shares one count.
    let proxyWarned = app.config.trustProxy !== false;
    // Registered after the auth plugin's hook, so request.userId is known here; and at onRequest,
    // so a refused request costs no body parsing, validation or database work.
    app.addHook('onRequest', async (request) => {
      if (!proxyWarned && request.headers['x-forwarded-for'] !== undefined) {
        proxyWarned = true;
        app.log.warn(
          'requests carry X-Forwarded-For but TRUST_PROXY is not set: if a proxy of yours is in front, every client counts as its address for the rate limits (set TRUST_PROXY=1 behind one proxy)',
        );
      }
      const limit = classOf(request);
      if (limit) await enforce(limit, request);
    });
    app.decorate('limitNotFound', (request: FastifyRequest) => enforce(notFound, request));
  },
  { name: 'rate-limits', dependencies: ['config', 'db', 'auth'] },
);
