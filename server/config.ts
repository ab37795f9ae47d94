// Configuration from the environment (decisions.md §2). Secrets that are not given are generated
// once and kept in DATA_DIR so tokens and push subscriptions survive a restart (lib/kept-secrets.ts).
// DATA_DIR is private to the server's user (0700).
import { join, resolve } from 'node:path';
import { MINING_SESSION_SECONDS_DEFAULT } from '@shared/constants';
import { keptSecrets } from './lib/kept-secrets';
import { privateDir } from './lib/private-files';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy';
import { HASH_QUEUE_DEFAULTS, type HashQueueOptions } from './services/hash-queue';
import { type IcoSettings, loadIcoSettings } from './services/ico';
import { PROJECT_ROOT } from './project-root';
import { loadUsdtSettings, type UsdtSettings } from './services/payments/usdt-settings';
import { type AllowedHosts, parseAllowedHosts } from './services/push-endpoint-policy';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  appUrl: string;
  appName: string;
  smtpUrl: string | null;
  /** Where mail goes (SMTP_URL, MAIL_TRANSPORT); printLinks: the outbox's links are printed on the console too. */
  mail: { transport: 'smtp' | 'outbox'; printLinks: boolean };
  jwtSecret: string;
  /**
   * Where the secrets the environment does not give are kept: DATA_DIR/secrets.json on SQLite, the
   * database on PostgreSQL, where plugins/kept-secrets.ts fills jwtSecret and vapid once it is open.
   */
  secretsKeptIn: 'environment' | 'data-dir' | 'database';
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Extra CA certificates (PEM file) trusted for push endpoints besides the system ones (PUSH_CA_FILE; tests' local push service). */
  pushCaFile: string | null;
  /** Push endpoint hosts allowed although private (PUSH_ALLOWED_HOSTS, exact names or IP literals; a self-hosted push service, tests). */
  pushAllowedHosts: AllowedHosts;
  googleClientId: string | null;
  googleUserinfoUrl: string;
  /** Where the audience of a Google access token is checked against googleClientId. */
  googleTokeninfoUrl: string;
  /** GOOGLE_CLIENT_SECRET: when set, the client uses Google's code flow and the server exchanges the code. */
  googleClientSecret: string | null;
  /** Google's token endpoint, where a code-flow code is exchanged (GOOGLE_TOKEN_URL; tests' stand-in). */
  googleTokenUrl: string;
  miningSessionSeconds: number;
  /** scrypt cost as log2(N) for new password hashes (OWASP: 17); tests use less for speed. */
  scryptLogN: number;
  /** Password hashes at once, waiting, and per client address (HASH_CONCURRENCY, HASH_QUEUE, HASH_QUEUE_PER_CLIENT). */
  hashQueue: HashQueueOptions;
  paymentsProvider: 'test' | null;
  /** sbp through YooKassa (decisions §8); null while YOOKASSA_SHOP_ID / YOOKASSA_SECRET_KEY are unset. */
  yookassa: YookassaSettings | null;
  /** Card payments through Stripe Checkout (decisions §8); null secretKey: card is off. */
  stripe: StripeSettings;
  /** USDT payments (USDT_* variables, see services/payments/usdt-settings.ts); null when not configured. */
  usdt: UsdtSettings | null;
  production: boolean;
  /** Folder of the built PWA (STATIC_DIR, default dist/ of the repository); null serves the API only. */
  staticDir: string | null;
  /** After SIGTERM, how long requests in flight and the worker's pass may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** How long a request, its body included, may take to arrive before it is answered 408 (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Background worker loop (Auto Miner, reminders) interval; 0 disables it. */
  workerIntervalMs: number;
  logLevel: string;
  /** Prometheus metrics listener (METRICS_PORT; unset: off; 0: a free port), on METRICS_HOST (default HOST). Never the public port. */
  metrics: { port: number; host: string } | null;
  /** X-Forwarded-For entries to trust (TRUST_PROXY: a hop count, or the proxies' addresses); false: the socket address. */
  trustProxy: TrustProxy;
  /** Blog articles, `<lang>/<slug>.md` (BLOG_DIR, default content/blog of the repository). */
  blogDir: string;
  /** New accounts per client address and hour (SIGNUP_LIMIT_PER_HOUR, default 10; 0: no limit, for load tests). */
  signupLimitPerHour: number;
  /** Request-rate limits at the edge (RATE_LIMITS, default on; off for benchmarks and load tests). */
  rateLimits: boolean;
  /** Multiplies every request-rate limit (RATE_LIMIT_FACTOR, default 1): more for players behind one big carrier NAT. */
  rateLimitFactor: number;
  /** Token-sale figures for GET /ico/ (ICO_* variables, see services/ico.ts). */
  ico: IcoSettings;
}

type Env = Record<string, string | undefined>;

function switchFrom(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`${name} must be "on" or "off", got "${env[name]}"`);
}

function positiveFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return n;
}

export interface YookassaSettings {
  shopId: string;
  secretKey: string;
  /** YOOKASSA_API_BASE, without a trailing slash (default https://api.yookassa.ru/v3). */
  apiBase: string;
  /** YOOKASSA_RUB_PER_USD: the rate orders (priced in USD) are charged at, in roubles, as given (e.g. "92.5"). */
  rubPerUsd: string;
}

function yookassaFrom(env: Env, production: boolean): YookassaSettings | null {
  const shopId = env.YOOKASSA_SHOP_ID || '';
  const secretKey = env.YOOKASSA_SECRET_KEY || '';
  if (!shopId && !secretKey) return null;
  if (!shopId || !secretKey) throw new Error('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY go together: set both or neither');
  const rate = env.YOOKASSA_RUB_PER_USD ?? '';
  // At most 4 decimals, so the rouble amount is computed exactly (services/payments/yookassa-provider.ts).
  if (!/^\d{1,6}(\.\d{1,4})?$/.test(rate) || Number(rate) <= 0) throw new Error(`YOOKASSA_RUB_PER_USD must be a positive rate such as 92.5 (roubles per US dollar), got "${rate}"`);
  const apiBase = (env.YOOKASSA_API_BASE || 'https://api.yookassa.ru/v3').replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new Error(`YOOKASSA_API_BASE must be a URL, got "${apiBase}"`);
  }
  // The secret key travels in every request's Authorization header.
  if (url.protocol !== 'https:' && (production || url.protocol !== 'http:')) throw new Error(`YOOKASSA_API_BASE must be https${production ? ' in production' : ''}, got "${apiBase}"`);
  return { shopId, secretKey, apiBase, rubPerUsd: rate };
}

export interface StripeSettings {
  /** STRIPE_SECRET_KEY (sk_live_… / sk_test_… or a restricted rk_… key). */
  secretKey: string | null;
  /** STRIPE_WEBHOOK_SECRET (whsec_…): the signing secret of the webhook endpoint. */
  webhookSecret: string | null;
  /** STRIPE_API_BASE split for the stripe package; null: Stripe's own api.stripe.com. */
  api: { protocol: 'http' | 'https'; host: string; port: number } | null;
}

function stripeFrom(env: Env): StripeSettings {
  const raw = env.STRIPE_API_BASE;
  let api: StripeSettings['api'] = null;
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL, got "${raw}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`STRIPE_API_BASE must be http(s), got "${raw}"`);
    // The package adds /v1/… to the host itself: a path here would be silently ignored.
    if (url.pathname !== '/' && url.pathname !== '') throw new Error(`STRIPE_API_BASE takes no path, got "${raw}"`);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
  }
  return { secretKey: env.STRIPE_SECRET_KEY || null, webhookSecret: env.STRIPE_WEBHOOK_SECRET || null, api };
}

function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function appUrlFrom(env: Env, port: number, production: boolean): string {
  const appUrl = (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new Error(`APP_URL must be a URL such as https://pxt.example.com, got "${env.APP_URL}"`);
  }
  // Mailed sign-in links and tokens would cross the network in clear text.
  if (production && url.protocol !== 'https:' && !LOOPBACK_HOST.test(url.hostname)) {
    throw new Error(`APP_URL must be https:// in production (links carry sign-in tokens), got "${env.APP_URL}"`);
  }
  return appUrl;
}

function mailFrom(env: Env, production: boolean): Config['mail'] {
  const transport = env.MAIL_TRANSPORT || '';
  if (transport !== '' && transport !== 'smtp' && transport !== 'outbox') throw new Error(`MAIL_TRANSPORT must be "smtp" or "outbox", got "${transport}"`);
  if (transport === 'outbox') {
    if (env.SMTP_URL) throw new Error('MAIL_TRANSPORT=outbox and SMTP_URL contradict each other: unset one');
    return { transport: 'outbox', printLinks: false };
  }
  if (env.SMTP_URL) return { transport: 'smtp', printLinks: false };
  if (transport === 'smtp') throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
  // The console is the journal in production: a printed link is a live sign-in token in the log.
  if (production) throw new Error('SMTP_URL is required when NODE_ENV=production (set MAIL_TRANSPORT=outbox to keep mails in DATA_DIR/outbox/ on purpose)');
  return { transport: 'outbox', printLinks: true };
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = intFrom(env, 'PORT', 8080);
  const dataDir = resolve(env.DATA_DIR || './data');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const metricsPort = env.METRICS_PORT ? intFrom(env, 'METRICS_PORT', 0) : null;
  // The metrics would be public: refuse rather than let the second listen fail or share a port.
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) throw new Error(`METRICS_PORT must not be the public PORT (${port})`);
  privateDir(dataDir);

  const givenVapid = env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null;
  const databaseUrl = env.DATABASE_URL || null;
  // With PostgreSQL every process has its own DATA_DIR: secrets kept there would differ per process.
  const secretsKeptIn = env.JWT_SECRET && givenVapid ? 'environment' : databaseUrl ? 'database' : 'data-dir';
  const kept = secretsKeptIn === 'data-dir' ? keptSecrets(dataDir) : null;
  // Filled from the database before any plugin reads them (plugins/kept-secrets.ts).
  const pending = { jwt: '', vapid: { publicKey: '', privateKey: '' } };
  const appUrl = appUrlFrom(env, port, production);
  const mail = mailFrom(env, production);
  const provider = env.PAYMENTS_PROVIDER ?? (production ? '' : 'test');
  if (provider && provider !== 'test') throw new Error(`PAYMENTS_PROVIDER "${provider}" is not known (use "test" or leave unset)`);
  if (provider === 'test' && production) throw new Error('PAYMENTS_PROVIDER=test is refused when NODE_ENV=production');

  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    databasePoolSize: intFrom(env, 'DATABASE_POOL_SIZE', 10, 1),
    appUrl,
    appName: env.APP_NAME || 'PXT Companion',
    smtpUrl: mail.transport === 'smtp' ? env.SMTP_URL! : null,
    mail,
    jwtSecret: env.JWT_SECRET || (kept ?? pending).jwt,
    secretsKeptIn,
    vapid: { ...(givenVapid ?? (kept ?? pending).vapid), subject: env.VAPID_SUBJECT || (appUrl.startsWith('https:') ? appUrl : `mailto:operator@${new URL(appUrl).hostname}`) },
    pushCaFile: env.PUSH_CA_FILE ? resolve(env.PUSH_CA_FILE) : null,
    pushAllowedHosts: parseAllowedHosts(env.PUSH_ALLOWED_HOSTS),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleUserinfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    googleTokeninfoUrl: env.GOOGLE_TOKENINFO_URL || 'https://oauth2.googleapis.com/tokeninfo',
    googleClientSecret: env.GOOGLE_CLIENT_SECRET || null,
    googleTokenUrl: env.GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
    miningSessionSeconds: intFrom(env, 'MINING_SESSION_SECONDS', MINING_SESSION_SECONDS_DEFAULT, 1),
    scryptLogN: intFrom(env, 'SCRYPT_LOG_N', 17, 10),
    hashQueue: {
      concurrency: intFrom(env, 'HASH_CONCURRENCY', HASH_QUEUE_DEFAULTS.concurrency, 1),
      maxWaiting: intFrom(env, 'HASH_QUEUE', HASH_QUEUE_DEFAULTS.maxWaiting, 0),
      perClient: intFrom(env, 'HASH_QUEUE_PER_CLIENT', HASH_QUEUE_DEFAULTS.perClient, 1),
    },
    paymentsProvider: provider === 'test' ? 'test' : null,
    yookassa: yookassaFrom(env, production),
    stripe: stripeFrom(env),
    usdt: loadUsdtSettings(env),
    production,
    staticDir: env.STATIC_DIR === '' ? null : env.STATIC_DIR ? resolve(env.STATIC_DIR) : join(PROJECT_ROOT, 'dist'),
    shutdownTimeoutMs: intFrom(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1),
    requestTimeoutMs: intFrom(env, 'REQUEST_TIMEOUT_MS', 30_000, 1),
    workerIntervalMs: intFrom(env, 'WORKER_INTERVAL_MS', 1000),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    metrics: metricsPort === null ? null : { port: metricsPort, host: env.METRICS_HOST || env.HOST || '127.0.0.1' },
    trustProxy,
    blogDir: env.BLOG_DIR ? resolve(env.BLOG_DIR) : join(PROJECT_ROOT, 'content', 'blog'),
    signupLimitPerHour: intFrom(env, 'SIGNUP_LIMIT_PER_HOUR', 10),
    rateLimits: switchFrom(env, 'RATE_LIMITS', true),
    rateLimitFactor: positiveFrom(env, 'RATE_LIMIT_FACTOR', 1),
    ico: loadIcoSettings(env),
  };
}
