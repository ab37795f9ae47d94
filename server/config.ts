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
  jwtSecret: string;
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Extra CA certificates (PEM file) trusted for push endpoints besides the system ones (PUSH_CA_FILE; tests' local push service). */
  pushCaFile: string | null;
  /** Push endpoint hosts allowed although private (PUSH_ALLOWED_HOSTS, exact names or IP literals; a self-hosted push service, tests). */
  pushAllowedHosts: AllowedHosts;
  googleClientId: string | null;
  googleUserinfoUrl: string;
  /** Where the audience of a Google access token is checked against googleClientId. */
  googleTokeninfoUrl: string;
  miningSessionSeconds: number;
  /** scrypt cost as log2(N) for new password hashes (OWASP: 17); tests use less for speed. */
  scryptLogN: number;
  /** Password hashes at once, waiting, and per client address (HASH_CONCURRENCY, HASH_QUEUE, HASH_QUEUE_PER_CLIENT). */
  hashQueue: HashQueueOptions;
  paymentsProvider: 'test' | null;
  /** USDT payments (USDT_* variables, see services/payments/usdt-settings.ts); null when not configured. */
  usdt: UsdtSettings | null;
  production: boolean;
  /** Folder of the built PWA (STATIC_DIR, default dist/ of the repository); null serves the API only. */
  staticDir: string | null;
  /** After SIGTERM, how long requests in flight and the worker's pass may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Background worker loop (Auto Miner, reminders) interval; 0 disables it. */
  workerIntervalMs: number;
  logLevel: string;
  /** X-Forwarded-For entries to trust (TRUST_PROXY: a hop count, or the proxies' addresses); false: the socket address. */
  trustProxy: TrustProxy;
  /** Blog articles, `<lang>/<slug>.md` (BLOG_DIR, default content/blog of the repository). */
  blogDir: string;
  /** New accounts per client address and hour (SIGNUP_LIMIT_PER_HOUR, default 10; 0: no limit, for load tests). */
  signupLimitPerHour: number;
  /** Token-sale figures for GET /ico/ (ICO_* variables, see services/ico.ts). */
  ico: IcoSettings;
}

type Env = Record<string, string | undefined>;

function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = intFrom(env, 'PORT', 8080);
  const dataDir = resolve(env.DATA_DIR || './data');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  privateDir(dataDir);

  const givenVapid = env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null;
  const kept = env.JWT_SECRET && givenVapid ? null : keptSecrets(dataDir);
  const appUrl = (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const provider = env.PAYMENTS_PROVIDER ?? (production ? '' : 'test');
  if (provider && provider !== 'test') throw new Error(`PAYMENTS_PROVIDER "${provider}" is not known (use "test" or leave unset)`);
  if (provider === 'test' && production) throw new Error('PAYMENTS_PROVIDER=test is refused when NODE_ENV=production');

  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    databasePoolSize: intFrom(env, 'DATABASE_POOL_SIZE', 10, 1),
    appUrl,
    appName: env.APP_NAME || 'PXT Companion',
    smtpUrl: env.SMTP_URL || null,
    jwtSecret: env.JWT_SECRET || kept!.jwt,
    vapid: { ...(givenVapid ?? kept!.vapid), subject: env.VAPID_SUBJECT || (appUrl.startsWith('https:') ? appUrl : `mailto:operator@${new URL(appUrl).hostname}`) },
    pushCaFile: env.PUSH_CA_FILE ? resolve(env.PUSH_CA_FILE) : null,
    pushAllowedHosts: parseAllowedHosts(env.PUSH_ALLOWED_HOSTS),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleUserinfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    googleTokeninfoUrl: env.GOOGLE_TOKENINFO_URL || 'https://oauth2.googleapis.com/tokeninfo',
    miningSessionSeconds: intFrom(env, 'MINING_SESSION_SECONDS', MINING_SESSION_SECONDS_DEFAULT, 1),
    scryptLogN: intFrom(env, 'SCRYPT_LOG_N', 17, 10),
    hashQueue: {
      concurrency: intFrom(env, 'HASH_CONCURRENCY', HASH_QUEUE_DEFAULTS.concurrency, 1),
      maxWaiting: intFrom(env, 'HASH_QUEUE', HASH_QUEUE_DEFAULTS.maxWaiting, 0),
      perClient: intFrom(env, 'HASH_QUEUE_PER_CLIENT', HASH_QUEUE_DEFAULTS.perClient, 1),
    },
    paymentsProvider: provider === 'test' ? 'test' : null,
    usdt: loadUsdtSettings(env),
    production,
    staticDir: env.STATIC_DIR === '' ? null : env.STATIC_DIR ? resolve(env.STATIC_DIR) : join(PROJECT_ROOT, 'dist'),
    shutdownTimeoutMs: intFrom(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1),
    workerIntervalMs: intFrom(env, 'WORKER_INTERVAL_MS', 1000),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy,
    blogDir: env.BLOG_DIR ? resolve(env.BLOG_DIR) : join(PROJECT_ROOT, 'content', 'blog'),
    signupLimitPerHour: intFrom(env, 'SIGNUP_LIMIT_PER_HOUR', 10),
    ico: loadIcoSettings(env),
  };
}
