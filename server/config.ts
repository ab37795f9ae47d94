// Configuration from the environment (decisions §2, §15). Every variable, its default and its
// meaning are declared once in env/variables.ts, which validates them (and generates the README's
// table); here they become the Config the server uses, with the rules between variables. A refused
// setting throws an Error whose message is one line (main.ts prints it and exits 1). What the start
// writes to DATA_DIR (the private folder, secrets.json on SQLite) is in lib/data-dir.ts.
import { join, resolve } from 'node:path';
import { prepareDataDir } from './lib/data-dir';
import type { TrustProxy } from './lib/trust-proxy';
import { stripeFrom, type StripeSettings, yookassaFrom, type YookassaSettings } from './env/payments';
import { discordFrom, type DiscordSettings, telegramFrom, type TelegramSettings } from './env/social';
import { declaredEnv, type Env, parseVariables } from './env/variables';
import type { HashQueueOptions } from './services/hash-queue';
import { type IcoSettings, loadIcoSettings } from './services/ico';
import { PROJECT_ROOT } from './project-root';
import { loadUsdtSettings, type UsdtSettings } from './services/payments/usdt-settings';
import type { AllowedHosts } from './services/push-endpoint-policy';

export type { DiscordSettings, StripeSettings, TelegramSettings, YookassaSettings };

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
  /** The bot, Mini App and Login Widget sign-in, verified channel follows (decisions §14); null: off. */
  telegram: TelegramSettings | null;
  /** Verified Discord follow through OAuth2 (decisions §14); null: the follow stays a trusted click. */
  discord: DiscordSettings | null;
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

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function appUrlFrom(given: string | null, port: number, production: boolean): string {
  const appUrl = (given || `http://localhost:${port}`).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new Error(`APP_URL must be a URL such as https://pxt.example.com, got "${given}"`);
  }
  // Mailed sign-in links and tokens would cross the network in clear text.
  if (production && url.protocol !== 'https:' && !LOOPBACK_HOST.test(url.hostname)) {
    throw new Error(`APP_URL must be https:// in production (links carry sign-in tokens), got "${given}"`);
  }
  return appUrl;
}

function mailFrom(transport: 'smtp' | 'outbox' | null, smtpUrl: string | null, production: boolean): Config['mail'] {
  if (transport === 'outbox') {
    if (smtpUrl) throw new Error('MAIL_TRANSPORT=outbox and SMTP_URL contradict each other: unset one');
    return { transport: 'outbox', printLinks: false };
  }
  if (smtpUrl) return { transport: 'smtp', printLinks: false };
  if (transport === 'smtp') throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
  // The console is the journal in production: a printed link is a live sign-in token in the log.
  if (production)
    throw new Error(
      'SMTP_URL is required when NODE_ENV=production (set MAIL_TRANSPORT=outbox to keep mails in DATA_DIR/outbox/ on purpose)',
    );
  return { transport: 'outbox', printLinks: true };
}

export function loadConfig(env: Env = process.env): Config {
  const v = parseVariables(env);
  const known = declaredEnv(env);
  const production = v.NODE_ENV === 'production';
  const { PORT: port } = v;
  const dataDir = resolve(v.DATA_DIR);
  // The metrics would be public: refuse rather than let the second listen fail or share a port.
  if (v.METRICS_PORT !== null && v.METRICS_PORT !== 0 && v.METRICS_PORT === port)
    throw new Error(`METRICS_PORT must not be the public PORT (${port})`);
  const appUrl = appUrlFrom(v.APP_URL, port, production);
  const mail = mailFrom(v.MAIL_TRANSPORT, v.SMTP_URL, production);
  const provider = v.PAYMENTS_PROVIDER ?? (production ? '' : 'test');
  if (provider && provider !== 'test')
    throw new Error(`PAYMENTS_PROVIDER "${provider}" is not known (use "test" or leave unset)`);
  if (provider === 'test' && production) throw new Error('PAYMENTS_PROVIDER=test is refused when NODE_ENV=production');
  const yookassa = yookassaFrom(known, production);
  const stripe = stripeFrom(known);
  const usdt = loadUsdtSettings(known);
  const ico = loadIcoSettings(known);
  const telegram = telegramFrom(known, production);
  const discord = discordFrom(known, production);

  const givenVapid =
    v.VAPID_PUBLIC_KEY && v.VAPID_PRIVATE_KEY
      ? { publicKey: v.VAPID_PUBLIC_KEY, privateKey: v.VAPID_PRIVATE_KEY }
      : null;
  // With PostgreSQL every process has its own DATA_DIR: secrets kept there would differ per process.
  const secretsKeptIn = v.JWT_SECRET && givenVapid ? 'environment' : v.DATABASE_URL ? 'database' : 'data-dir';
  // Every setting is checked before anything is written.
  const kept = prepareDataDir(dataDir, secretsKeptIn === 'data-dir');
  // Filled from the database before any plugin reads them (plugins/kept-secrets.ts).
  const pending = { jwt: '', vapid: { publicKey: '', privateKey: '' } };

  return {
    port,
    host: v.HOST,
    dataDir,
    databaseUrl: v.DATABASE_URL,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    appUrl,
    appName: v.APP_NAME,
    smtpUrl: mail.transport === 'smtp' ? v.SMTP_URL : null,
    mail,
    jwtSecret: v.JWT_SECRET || (kept ?? pending).jwt,
    secretsKeptIn,
    vapid: {
      ...(givenVapid ?? (kept ?? pending).vapid),
      subject:
        v.VAPID_SUBJECT || (appUrl.startsWith('https:') ? appUrl : `mailto:operator@${new URL(appUrl).hostname}`),
    },
    pushCaFile: v.PUSH_CA_FILE ? resolve(v.PUSH_CA_FILE) : null,
    pushAllowedHosts: v.PUSH_ALLOWED_HOSTS,
    googleClientId: v.GOOGLE_CLIENT_ID,
    googleUserinfoUrl: v.GOOGLE_USERINFO_URL,
    googleTokeninfoUrl: v.GOOGLE_TOKENINFO_URL,
    googleClientSecret: v.GOOGLE_CLIENT_SECRET,
    googleTokenUrl: v.GOOGLE_TOKEN_URL,
    telegram,
    discord,
    miningSessionSeconds: v.MINING_SESSION_SECONDS,
    scryptLogN: v.SCRYPT_LOG_N,
    hashQueue: { concurrency: v.HASH_CONCURRENCY, maxWaiting: v.HASH_QUEUE, perClient: v.HASH_QUEUE_PER_CLIENT },
    paymentsProvider: provider === 'test' ? 'test' : null,
    yookassa,
    stripe,
    usdt,
    production,
    staticDir: v.STATIC_DIR === '' ? null : v.STATIC_DIR ? resolve(v.STATIC_DIR) : join(PROJECT_ROOT, 'dist'),
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
    workerIntervalMs: v.WORKER_INTERVAL_MS,
    logLevel: v.LOG_LEVEL || (v.NODE_ENV === 'test' ? 'silent' : 'info'),
    metrics: v.METRICS_PORT === null ? null : { port: v.METRICS_PORT, host: v.METRICS_HOST || v.HOST },
    trustProxy: v.TRUST_PROXY,
    blogDir: v.BLOG_DIR ? resolve(v.BLOG_DIR) : join(PROJECT_ROOT, 'content', 'blog'),
    signupLimitPerHour: v.SIGNUP_LIMIT_PER_HOUR,
    rateLimits: v.RATE_LIMITS,
    rateLimitFactor: v.RATE_LIMIT_FACTOR,
    ico,
  };
}
