// HS256 JSON Web Tokens with node:crypto. Access tokens are checked on every call, so this stays
// small and allocation-light rather than going through a general JOSE library.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
/** Verified tokens kept (the oldest goes first): about 3 MB at most. */
const VERIFIED_MAX = 10_000;

export interface AccessClaims {
  sub: number;
  /** The session (decisions §13) the token belongs to; it is refused once that session has ended. */
  sid: number;
  iat: number;
  exp: number;
  typ: 'access';
}

export function createJwt(secret: string) {
  // The key object is made once: from a string, every HMAC would import the key again.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const sign = (data: string) => createHmac('sha256', key).update(data).digest();
  // A page open makes several calls with one token: each checked once, then found by the whole
  // token (signature included, so only a token that passed is ever found). The HMAC and the parse
  // were a tenth of the server's CPU in the day of play (`npm run bench`, issue 25). The expiry is
  // still checked on every call, and the session is still read (plugins/auth.ts).
  const verified = new Map<string, Readonly<AccessClaims>>();
  /** The claims of an access token signed with this key, expired or not; null when it is not one. */
  const checkAccess = (token: string): Readonly<AccessClaims> | null => {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return null;
    const given = Buffer.from(parts[2], 'base64url');
    const expected = sign(`${parts[0]}.${parts[1]}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as AccessClaims;
      // A token without a session (issued before sessions existed) is refused: the client renews it.
      if (
        claims.typ !== 'access' ||
        !Number.isInteger(claims.sub) ||
        !Number.isInteger(claims.sid) ||
        !Number.isFinite(claims.exp)
      )
        return null;
      return Object.freeze(claims);
    } catch {
      return null;
    }
  };
  return {
    issueAccess(userId: number, sessionId: number, ttlSeconds: number, now = Date.now()): string {
      const iat = Math.floor(now / 1000);
      const body = Buffer.from(
        JSON.stringify({ sub: userId, sid: sessionId, iat, exp: iat + ttlSeconds, typ: 'access' }),
      ).toString('base64url');
      const data = `${HEADER}.${body}`;
      return `${data}.${sign(data).toString('base64url')}`;
    },
    /** The claims of a valid, unexpired access token, else null. */
    verifyAccess(token: string, now = Date.now()): Readonly<AccessClaims> | null {
      let claims = verified.get(token);
      if (!claims) {
        const checked = checkAccess(token);
        if (!checked) return null;
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, (claims = checked));
      }
      if (claims.exp * 1000 > now) return claims;
      verified.delete(token);
      return null;
    },
  };
}
export type Jwt = ReturnType<typeof createJwt>;
