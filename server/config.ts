// Configuration from the environment (decisions.md §2). Secrets that are not given are generated
// once and kept in DATA_DIR so tokens and push subscriptions survive a restart.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import webpush from 'web-push';
import { MINING_SESSION_SECONDS_DEFAULT } from '../shared/constants';
import { type IcoSettings, loadIcoSettings } from './services/ico';
import { PROJECT_ROOT } from './project-root';
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
  paymentsProvider: 'test' | null;
  production: boolean;
  /** Folder of the built PWA (STATIC_DIR, default dist/ of the repository); null serves the API only. */
  staticDir: string | null;
  /** After SIGTERM, how long requests in flight and the worker's pass may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Background worker loop (Auto Miner, reminders) interval; 0 disables it. */
  workerIntervalMs: number;
  logLevel: string;
  /** Trust X-Forwarded-For (only behind a reverse proxy you run); otherwise per-IP limits use the socket address. */
  trustProxy: boolean | string;
  /** Blog articles, `<lang>/<slug>.md` (BLOG_DIR, default content/blog of the repository). */
  blogDir: string;
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

/** Reads a secret kept in DATA_DIR/secrets.json, creating it with `make` the first time. */
function keptSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, 'secrets.json');
  const all: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  if (!all[name]) {
    all[name] = make();
    writeFileSync(file, JSON.stringify(all, null, 2), { mode: 0o600 });
  }
  return all[name];
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = intFrom(env, 'PORT', 8080);
  const dataDir = resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });

  let vapidPublic = env.VAPID_PUBLIC_KEY;
  let vapidPrivate = env.VAPID_PRIVATE_KEY;
  if (!vapidPublic || !vapidPrivate) {
    const kept = keptSecret(dataDir, 'vapid', () => JSON.stringify(webpush.generateVAPIDKeys()));
    ({ publicKey: vapidPublic, privateKey: vapidPrivate } = JSON.parse(kept));
  }
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
    jwtSecret: env.JWT_SECRET || keptSecret(dataDir, 'jwt', () => randomBytes(48).toString('base64url')),
    vapid: { publicKey: vapidPublic!, privateKey: vapidPrivate!, subject: env.VAPID_SUBJECT || (appUrl.startsWith('https:') ? appUrl : `mailto:operator@${new URL(appUrl).hostname}`) },
    pushCaFile: env.PUSH_CA_FILE ? resolve(env.PUSH_CA_FILE) : null,
    pushAllowedHosts: parseAllowedHosts(env.PUSH_ALLOWED_HOSTS),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleUserinfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    googleTokeninfoUrl: env.GOOGLE_TOKENINFO_URL || 'https://oauth2.googleapis.com/tokeninfo',
    miningSessionSeconds: intFrom(env, 'MINING_SESSION_SECONDS', MINING_SESSION_SECONDS_DEFAULT, 1),
    scryptLogN: intFrom(env, 'SCRYPT_LOG_N', 17, 10),
    paymentsProvider: provider === 'test' ? 'test' : null,
    production,
    staticDir: env.STATIC_DIR === '' ? null : env.STATIC_DIR ? resolve(env.STATIC_DIR) : join(PROJECT_ROOT, 'dist'),
    shutdownTimeoutMs: intFrom(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1),
    workerIntervalMs: intFrom(env, 'WORKER_INTERVAL_MS', 1000),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: !env.TRUST_PROXY || env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY,
    blogDir: env.BLOG_DIR ? resolve(env.BLOG_DIR) : join(PROJECT_ROOT, 'content', 'blog'),
    ico: loadIcoSettings(env),
  };
}
