// HS256 JSON Web Tokens with node:crypto. Access tokens are checked on every call, so this stays
// small and allocation-light rather than going through a general JOSE library.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

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
    verifyAccess(token: string, now = Date.now()): AccessClaims | null {
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
          claims.exp * 1000 <= now
        )
          return null;
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type Jwt = ReturnType<typeof createJwt>;
