// Every environment variable the server reads (decisions §2, §15), in ONE declarative schema: its
// kind (env/fields.ts, which validates it), its default and its meaning. The README's configuration
// table is generated from this file (`npm run config-table`; tests/api/config-schema.test.ts fails
// when they differ). Adding a variable is one entry here; config.ts then puts its value where the
// server uses it. Rules between variables (production, pairs that go together) are in config.ts.
// `sameRow`: documented in the row of the entry above (variables that only make sense together).
import { z } from 'zod';
import { MINING_SESSION_SECONDS_DEFAULT } from '@shared/constants';
import { parseTrustProxy } from '../lib/trust-proxy';
import { HASH_QUEUE_DEFAULTS as HQ } from '../services/hash-queue';
import { parseAllowedHosts } from '../services/push-endpoint-policy';
import { custom, int, oneOf, onOff, positive, raw, text, textOr } from './fields';

export interface Doc {
  default: string;
  meaning: string;
}
export const docs = z.registry<Doc | { sameRow: true }>();
const doc = <S extends z.ZodType>(schema: S, d: Doc): S => (docs.add(schema as z.ZodType, d), schema);
const sameRow = <S extends z.ZodType>(schema: S): S => (docs.add(schema as z.ZodType, { sameRow: true }), schema);

export const variables = z.object({
  PORT: doc(int(8080), { default: '8080', meaning: 'HTTP port for app + API' }),
  HOST: doc(textOr('127.0.0.1'), { default: '127.0.0.1', meaning: 'bind address' }),
  DATA_DIR: doc(textOr('./data'), {
    default: '`./data`',
    meaning: 'SQLite file, generated secrets (SQLite only), mail outbox; private to the server (0700)',
  }),
  DATABASE_URL: doc(text(), { default: 'unset', meaning: '`postgres://…` switches to PostgreSQL' }),
  DATABASE_POOL_SIZE: doc(int(10, 1), { default: '10', meaning: 'PostgreSQL connections per process' }),
  APP_URL: doc(text(), {
    default: '`http://localhost:$PORT`',
    meaning: 'base of links in e-mails and referral links; https in production (http only on a loopback host)',
  }),
  APP_NAME: doc(textOr('PXT Companion'), {
    default: '`PXT Companion`',
    meaning: 'product name; fills `{product}` in the wallet text',
  }),
  SMTP_URL: doc(text(), {
    default: 'unset',
    meaning:
      'real mail (`smtp://user:pass@host:587`); unset: `.eml` files in `DATA_DIR/outbox/` and, outside production, the link on the console. Required in production unless `MAIL_TRANSPORT=outbox`',
  }),
  MAIL_TRANSPORT: doc(oneOf(['smtp', 'outbox'] as const), {
    default: '`smtp` with `SMTP_URL`, else `outbox`',
    meaning:
      '`outbox` keeps mails in `DATA_DIR/outbox/` on purpose (production without a mail server); its links are then never printed',
  }),
  JWT_SECRET: doc(text(), {
    default: 'generated once, kept in `DATA_DIR/secrets.json` (SQLite) or the database (PostgreSQL)',
    meaning: 'token signing key',
  }),
  VAPID_PUBLIC_KEY: doc(text(), {
    default: 'generated once, kept like `JWT_SECRET`',
    meaning: 'Web Push keys (both or neither)',
  }),
  VAPID_PRIVATE_KEY: sameRow(text()),
  VAPID_SUBJECT: doc(text(), {
    default: '`APP_URL` when https, else `mailto:operator@<host>`',
    meaning: 'contact sent to push services',
  }),
  PUSH_CA_FILE: doc(text(), {
    default: 'unset',
    meaning:
      "PEM file of extra CA certificates trusted for push endpoints, besides the system ones (the API tests' local HTTPS push service uses it; certificate checks always stay on)",
  }),
  PUSH_ALLOWED_HOSTS: doc(custom(parseAllowedHosts), {
    default: 'unset',
    meaning:
      'comma-separated host names (or IP literals) of push services allowed although private: a self-hosted push service, tests',
  }),
  GOOGLE_CLIENT_ID: doc(text(), {
    default: 'unset',
    meaning: 'shown to the client; the Google button is hidden when unset',
  }),
  GOOGLE_USERINFO_URL: doc(textOr('https://openidconnect.googleapis.com/v1/userinfo'), {
    default: "Google's OpenID userinfo endpoint",
    meaning: 'where `/auth/google/` reads the profile behind an access token',
  }),
  GOOGLE_TOKENINFO_URL: doc(textOr('https://oauth2.googleapis.com/tokeninfo'), {
    default: '`https://oauth2.googleapis.com/tokeninfo`',
    meaning:
      'where `/auth/google/` checks that the token was issued to `GOOGLE_CLIENT_ID` (a token for another app is refused)',
  }),
  GOOGLE_CLIENT_SECRET: doc(text(), {
    default: 'unset',
    meaning:
      "when set (with `GOOGLE_CLIENT_ID`), the client uses Google's authorization-code flow and `/auth/google/` exchanges the code (spec §5)",
  }),
  GOOGLE_TOKEN_URL: doc(textOr('https://oauth2.googleapis.com/token'), {
    default: '`https://oauth2.googleapis.com/token`',
    meaning: 'where `/auth/google/` exchanges a code-flow code',
  }),
  TELEGRAM_BOT_TOKEN: doc(text(), {
    default: 'unset (Telegram off)',
    meaning:
      "the bot's token from BotFather and its username (both or neither): Mini App and Login Widget sign-in, the bot, claim reminders (decisions §14)",
  }),
  TELEGRAM_BOT_USERNAME: sameRow(text()),
  TELEGRAM_WEBHOOK_SECRET: doc(text(), {
    default: 'required with the bot',
    meaning:
      'the secret Telegram sends as `X-Telegram-Bot-Api-Secret-Token` with every update to `/api/v1/telegram/webhook/` (1–256 of `A-Z a-z 0-9 _ -`)',
  }),
  TELEGRAM_API_BASE: doc(textOr('https://api.telegram.org'), {
    default: '`https://api.telegram.org`',
    meaning: 'the Bot API; https only in production; tests use a local stand-in',
  }),
  TELEGRAM_CHANNEL_RU: doc(text(), {
    default: 'unset (trusted click)',
    meaning:
      'the Russian and international channels (`@name` or id): with one set, its follow quest pays only for members (`getChatMember`; the bot must be an administrator there)',
  }),
  TELEGRAM_CHANNEL_EN: sameRow(text()),
  DISCORD_CLIENT_ID: doc(text(), {
    default: 'unset (trusted click)',
    meaning:
      'the Discord application (OAuth2 redirect `APP_URL/auth/discord/callback`) and the server (guild) id, all three together: the Discord quest pays only for members',
  }),
  DISCORD_CLIENT_SECRET: sameRow(text()),
  DISCORD_GUILD_ID: sameRow(text()),
  DISCORD_API_BASE: doc(textOr('https://discord.com/api/v10'), {
    default: '`https://discord.com/api/v10`',
    meaning: 'https only in production; tests use a local stand-in',
  }),
  MINING_SESSION_SECONDS: doc(int(MINING_SESSION_SECONDS_DEFAULT, 1), {
    default: String(MINING_SESSION_SECONDS_DEFAULT),
    meaning: 'mining session length (shorter for demos and tests)',
  }),
  PAYMENTS_PROVIDER: doc(raw(), {
    default: '`test` outside production, none in production',
    meaning:
      '`test` pays every method no real provider serves at once (demos, tests); with no method available, top-up answers 503',
  }),
  STRIPE_SECRET_KEY: doc(text(), {
    default: 'unset',
    meaning:
      'card payments through Stripe Checkout: the API key (a restricted key with Checkout Sessions write is enough) and the signing secret of the webhook `https://<host>/api/v1/payments/webhooks/stripe/` (events `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `charge.refunded`)',
  }),
  STRIPE_WEBHOOK_SECRET: sameRow(text()),
  STRIPE_API_BASE: doc(text(), {
    default: "Stripe's own",
    meaning: 'tests point it at a local stand-in (`http://127.0.0.1:<port>`)',
  }),
  YOOKASSA_SHOP_ID: doc(text(), {
    default: 'unset',
    meaning:
      'sbp through YooKassa (both or neither); notifications at `https://<host>/api/v1/payments/webhooks/yookassa/` are read back from the API before anything is paid',
  }),
  YOOKASSA_SECRET_KEY: sameRow(text()),
  YOOKASSA_RUB_PER_USD: doc(raw(), {
    default: 'required with YooKassa',
    meaning: 'roubles per US dollar orders are charged at (up to 4 decimals; the charge is kept on the order)',
  }),
  YOOKASSA_API_BASE: doc(textOr('https://api.yookassa.ru/v3'), {
    default: '`https://api.yookassa.ru/v3`',
    meaning: 'https only in production; tests use a local stand-in',
  }),
  USDT_RPC_URL: doc(raw(), {
    default: 'unset',
    meaning:
      'tether: a JSON-RPC node of the chain (read only), its chain id, the USDT contract and the address that receives payments (its key stays off the server); all four together',
  }),
  USDT_CHAIN_ID: sameRow(raw()),
  USDT_CONTRACT: sameRow(raw()),
  USDT_TREASURY: sameRow(raw()),
  USDT_CONFIRMATIONS: doc(raw(), { default: '3', meaning: 'blocks a USDT payment needs, its own included' }),
  NODE_ENV: doc(raw(), {
    default: 'development',
    meaning:
      '`production` turns off the test payment provider and refuses to start without `SMTP_URL` (or `MAIL_TRANSPORT=outbox`) or with an http `APP_URL` off loopback',
  }),
  STATIC_DIR: doc(raw(), {
    default: '`dist/` of the repository',
    meaning: 'the built PWA to serve; empty serves the API only',
  }),
  WORKER_INTERVAL_MS: doc(int(1000), {
    default: '1000',
    meaning: 'how often the background worker looks for ended sessions; 0 turns it off',
  }),
  SCRYPT_LOG_N: doc(int(17, 10), { default: '17', meaning: 'scrypt cost (2^N); tests lower it for speed' }),
  HASH_CONCURRENCY: doc(int(HQ.concurrency, 1), {
    default: `${HQ.concurrency}, ${HQ.maxWaiting}, ${HQ.perClient}`,
    meaning:
      'password hashes running at once per process, waiting, and places one client address may hold; beyond them sign-ins answer 503 `busy` with `Retry-After`',
  }),
  HASH_QUEUE: sameRow(int(HQ.maxWaiting, 0)),
  HASH_QUEUE_PER_CLIENT: sameRow(int(HQ.perClient, 1)),
  SIGNUP_LIMIT_PER_HOUR: doc(int(10), {
    default: '10',
    meaning:
      'new accounts per client address and hour (e-mail, wallet, Google), counted in the database; 0 turns it off (load tests, benchmarks)',
  }),
  RATE_LIMITS: doc(onOff(true), {
    default: 'on',
    meaning:
      'request-rate limits on every route (see Security); `off` for benchmarks and load tests from one machine only. The sign-in attempt limits and the sign-up limit stay on either way',
  }),
  RATE_LIMIT_FACTOR: doc(positive(1), {
    default: '1',
    meaning: 'multiplies every request-rate limit; raise it where many players share few addresses',
  }),
  METRICS_PORT: doc(int(null), {
    default: 'unset (off)',
    meaning:
      'Prometheus metrics at `GET /metrics` on a listener of its own, never the public port; one port per process',
  }),
  METRICS_HOST: doc(text(), {
    default: '`HOST`',
    meaning: 'where the metrics listener binds; only Prometheus should reach it',
  }),
  SHUTDOWN_TIMEOUT_MS: doc(int(25_000, 1), {
    default: '25000',
    meaning:
      "how long SIGTERM waits for requests in flight and the worker's pass before exiting anyway (whatever state stdout is in)",
  }),
  REQUEST_TIMEOUT_MS: doc(int(30_000, 1), {
    default: '30000',
    meaning: 'deadline for a whole request, body included: a client still sending after it gets 408',
  }),
  LOG_LEVEL: doc(text(), { default: 'info (silent under `NODE_ENV=test`)', meaning: 'pino log level' }),
  TRUST_PROXY: doc(custom(parseTrustProxy), {
    default: 'false',
    meaning:
      'the number of your reverse proxies in front (`1` for one nginx or Caddy, `2` with a CDN before it; at most 5), or their addresses/CIDRs (no wider than /8 for IPv4, /32 for IPv6): the client is the address your nearest proxy appended to `X-Forwarded-For`, so per-client limits see the player. Only the proxy may reach the server. `true` is refused (it would let every client choose its own address)',
  }),
  BLOG_DIR: doc(text(), { default: '`content/blog`', meaning: 'folder of the Markdown articles (`<lang>/<slug>.md`)' }),
  ICO_STAGE: doc(raw(), {
    default: '1, 0.05, 0, 100000000, unset, unset',
    meaning: 'the token-sale figures `/ico` shows (dates ISO 8601; unset = not announced)',
  }),
  ICO_PRICE_USD: sameRow(raw()),
  ICO_TOKENS_SOLD: sameRow(raw()),
  ICO_TOKENS_TOTAL: sameRow(raw()),
  ICO_STARTS_AT: sameRow(raw()),
  ICO_ENDS_AT: sameRow(raw()),
});

export type Variables = z.infer<typeof variables>;
export type Env = Record<string, string | undefined>;

/** The variables, parsed; throws an Error whose message is one line naming the variable. */
export function parseVariables(env: Env): Variables {
  const result = variables.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue.path[0] ?? '');
  throw new Error(issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`);
}

/** The environment restricted to the declared variables: what the group parsers (USDT, ICO …) may read. */
export function declaredEnv(env: Env): Env {
  return Object.fromEntries(Object.keys(variables.shape).map((name) => [name, env[name]]));
}
