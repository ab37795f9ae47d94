// The "limit routes" of the API figures (issue 14): each hot read done by hand on a bare Fastify,
// the least work the same answer can cost in this stack. The app's own HS256 bearer check,
// the token's session checked as the app checks it on every call (issue 21: an ended session's token
// is refused), prepared better-sqlite3 statements that read exactly the rows the app reads, the same
// JSON built with the same pure functions, Fastify's default JSON.stringify, and answers over 1 KB
// compressed as the app must send them to a browser that accepts it (the same function, called by
// hand), with the security headers every answer carries (the same answer: status, headers and body).
// No hooks, no validation, no query builder, no log line. The app's calls are reported as a share of
// these.
import SQLite from 'better-sqlite3';
import { planStableSql } from '../server/db/sqlite-plan-stable';
import { securityHeaders } from '../server/lib/security-headers';
import { createJwt, type Jwt } from '../server/services/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSIONS_PAGE_SIZE_DEFAULT } from '@shared/api/mining';
import { API_BASE } from '@shared/constants';
import { ratePercents } from '@shared/mining-math';
import { sessionJson, type SessionRow, type TempBoostRow } from '../server/services/mining-sessions';
import { rateBoostJson, type RateBoostRow } from '../server/services/rate-boosts';
import { tempBoostJson } from '../server/services/temp-boosts';
import {
  COMPRESS_MAX_BYTES,
  COMPRESS_MIN_BYTES,
  compressedJson,
  negotiateEncoding,
} from '../server/plugins/compress-json';

export const LIMIT_ROUTES = {
  '/api/v1/auth/me': '/limit/auth/me',
  '/api/v1/mining/sessions/': '/limit/mining/sessions/',
  '/api/v1/mining/boosts/': '/limit/mining/boosts/',
} as const;

interface Bearer {
  /** The player. */
  sub: number;
  /** The session the token names (decisions §13). */
  sid: number;
}

/**
 * The player and session of a valid access token, else null: the app's own check (a token verified
 * once, then found by the whole token, as any server would do it), so the ratio measures the rest.
 */
function bearerCheck(jwt: Jwt) {
  return (request: FastifyRequest): Bearer | null => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return null;
    return jwt.verifyAccess(header.slice(7));
  };
}

/** The security headers every answer of the app carries (API only, no Telegram: as the bench runs it). */
const SECURITY_HEADERS = securityHeaders({ scriptHashes: [], telegram: false });

/**
 * The answer as the API puts it on the wire: with its security headers, compressed over 1 KB when the
 * client accepts it.
 */
function json(request: FastifyRequest, reply: FastifyReply, value: unknown) {
  const payload = JSON.stringify(value);
  reply.headers(SECURITY_HEADERS);
  reply.type('application/json; charset=utf-8');
  const bytes = Buffer.byteLength(payload);
  const encoding =
    bytes >= COMPRESS_MIN_BYTES && bytes <= COMPRESS_MAX_BYTES
      ? negotiateEncoding(request.headers['accept-encoding'])
      : null;
  if (!encoding) return reply.send(payload);
  return reply
    .header('vary', 'accept-encoding')
    .header('content-encoding', encoding)
    .send(compressedJson(payload, bytes, encoding));
}

const unauthorized = (reply: FastifyReply) =>
  reply
    .code(401)
    .headers(SECURITY_HEADERS)
    .send({ detail: 'Given token not valid for any token type', code: 'token_not_valid' });

export function registerLimitRoutes(
  app: FastifyInstance,
  opts: { databaseFile: string; jwtSecret: string; appUrl: string },
): void {
  const sqlite = new SQLite(opts.databaseFile, { readonly: true });
  // Values written `+?` as the app writes its compiled statements (server/db/sqlite-plan-stable.ts):
  // planned once, never prepared again because of a binding.
  const prepare = (sql: string) => sqlite.prepare(planStableSql(sql));
  const bearerOf = bearerCheck(createJwt(opts.jwtSecret));
  // The session check of every call but /auth/me (which reads it with the player): the token's
  // session must be the player's and not ended. (The app also writes its `last_used_at` when older
  // than five minutes, without holding the call: the bench's sessions are fresh.)
  const liveSession = prepare(
    'select "last_used_at" from "sessions" where "id" = ? and "user_id" = ? and "ended_at" is null',
  );
  const userOf = (request: FastifyRequest): number | null => {
    const bearer = bearerOf(request);
    if (bearer === null) return null;
    return liveSession.get(bearer.sid, bearer.sub) === undefined ? null : bearer.sub;
  };

  // `claimed = 0` in the SQL, as the app writes it: a bound 0 would make SQLite re-prepare the
  // statement at every call (it picks the partial index on unclaimed sessions by the bound value).
  // The token's session is read in the same statement, as the app reads it.
  const me = prepare(
    'select "users".*, exists (select "mining_sessions"."id" from "mining_sessions" where "mining_sessions"."user_id" = "users"."id" and "mining_sessions"."claimed" = 0) as "mining",' +
      ' (select "sessions"."last_used_at" from "sessions" where "sessions"."id" = ? and "sessions"."user_id" = "users"."id" and "sessions"."ended_at" is null) as "session_used_at"' +
      ' from "users" where "users"."id" = ?',
  );
  app.get(LIMIT_ROUTES['/api/v1/auth/me'], async (request, reply) => {
    const bearer = bearerOf(request);
    if (bearer === null) return unauthorized(reply);
    const user = me.get(bearer.sid, bearer.sub) as Record<string, string | number | null> | undefined;
    if (!user || user.session_used_at === null) return unauthorized(reply);
    return json(request, reply, {
      username: user.username ?? '',
      email: user.email ?? '',
      wallet_address: user.wallet_address ?? '',
      balance: Number(user.balance),
      token: Number(user.token) / 1_000_000,
      gems: Number(user.gems),
      referral_link: `${opts.appUrl}/?refCode=${encodeURIComponent(String(user.referral_code))}`,
      password_set: user.password_hash !== null,
      mining: Number(user.mining) === 1,
      ico: Number(user.ico) === 1,
      language: Number(user.language) === 1,
    });
  });

  const sessionCount = prepare('select count(*) as "n" from "mining_sessions" where "user_id" = ?');
  const sessionPage = prepare(
    'select * from "mining_sessions" where "user_id" = ? order by "started_at" desc, "id" desc limit ? offset ?',
  );
  const boostsBySize = new Map<number, SQLite.Statement>();
  const boostsOf = (ids: number[]) => {
    let stmt = boostsBySize.get(ids.length);
    if (!stmt) {
      stmt = prepare(
        `select * from "temp_boosts" where "session_id" in (${ids.map(() => '?').join(', ')}) and "state" in (?, ?) order by "starts_at", "id"`,
      );
      boostsBySize.set(ids.length, stmt);
    }
    return stmt.all(...ids, 'applied', 'expired') as TempBoostRow[];
  };
  app.get(LIMIT_ROUTES['/api/v1/mining/sessions/'], async (request, reply) => {
    const userId = userOf(request);
    if (userId === null) return unauthorized(reply);
    const query = request.query as Record<string, string | undefined>;
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.page_size ?? SESSIONS_PAGE_SIZE_DEFAULT);
    const { n } = sessionCount.get(userId) as { n: number };
    const sessions = sessionPage.all(userId, pageSize, (page - 1) * pageSize) as SessionRow[];
    const byId = new Map<number, TempBoostRow[]>();
    if (sessions.length)
      for (const b of boostsOf(sessions.map((s) => s.id)))
        (byId.get(Number(b.session_id)) ?? byId.set(Number(b.session_id), []).get(Number(b.session_id))!).push(b);
    const pathOf = (p: number) => `${API_BASE}/mining/sessions/?page=${p}&page_size=${pageSize}`;
    const lastPage = Math.max(1, Math.ceil(n / pageSize));
    return json(request, reply, {
      count: n,
      next: page < lastPage ? pathOf(page + 1) : null,
      previous: page > 1 ? pathOf(Math.min(page - 1, lastPage)) : null,
      results: sessions.map((s) => sessionJson(s, byId.get(s.id) ?? [])),
    });
  });

  const tempBoosts = prepare(
    'select * from "temp_boosts" where "user_id" = ? and ("state" in (?, ?) or ("state" = ? and "ends_at" > ?)) order by "id"',
  );
  const rateBoosts = prepare('select * from "rate_boosts" where "user_id" = ? order by "kind" desc, "id"');
  // Active friends (a claimed session) whose +10 % is not taken yet (services/rate-boosts.ts).
  const waitingReferrals = prepare(
    'select count(*) as "n" from "users" where "referrer_id" = ? and exists (select "id" from "ledger" where "ledger"."user_id" = "users"."id" and "reason" = ?)' +
      ' and not exists (select "id" from "rate_boosts" where "rate_boosts"."user_id" = ? and "rate_boosts"."referral_id" = "users"."id")',
  );
  app.get(LIMIT_ROUTES['/api/v1/mining/boosts/'], async (request, reply) => {
    const userId = userOf(request);
    if (userId === null) return unauthorized(reply);
    const now = Date.now();
    const temp = tempBoosts.all(userId, 'owned', 'selected', 'applied', now) as TempBoostRow[];
    const permanent = rateBoosts.all(userId) as RateBoostRow[];
    // The totals from the rows just read, as the app counts them.
    const count = (kind: string) => permanent.filter((r) => r.kind === kind).length;
    const rate = ratePercents(count('task'), count('referral'));
    return json(request, reply, {
      boosts: [...temp.map((b) => tempBoostJson(b, now)), ...permanent.map(rateBoostJson)],
      task_total_boost: rate.taskPercent,
      task_count: count('task'),
      referral_total_boost: rate.referralPercent,
      referral_count: count('referral'),
      referral_waiting: (waitingReferrals.get(userId, 'mining_claim', userId) as { n: number }).n,
      temporary_count: temp.filter((b) => b.state === 'owned' || b.state === 'selected').length,
    });
  });
  app.addHook('onClose', async () => sqlite.close());
}
