// Access tokens are checked once and then found by the whole token (server/services/jwt.ts): what
// is found must be what a full check would answer.
import { describe, expect, it } from 'vitest';
import { createJwt } from '../../server/services/jwt';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const NOW = Date.UTC(2026, 10, 29, 12);

describe('verifyAccess', () => {
  it('answers the same claims for a token it has checked before', () => {
    const jwt = createJwt(SECRET);
    const token = jwt.issueAccess(7, 70, 900, NOW);
    const first = jwt.verifyAccess(token, NOW);
    expect(first).toMatchObject({ sub: 7, sid: 70, typ: 'access' });
    expect(jwt.verifyAccess(token, NOW + 1000)).toEqual(first);
  });

  it('refuses a token it has checked before once it has expired', () => {
    const jwt = createJwt(SECRET);
    const token = jwt.issueAccess(7, 70, 900, NOW);
    expect(jwt.verifyAccess(token, NOW)).not.toBeNull();
    expect(jwt.verifyAccess(token, NOW + 900_000)).toBeNull();
    expect(jwt.verifyAccess(token, NOW + 899_000)).not.toBeNull();
  });

  it('refuses a changed signature or body after the real token was found good', () => {
    const jwt = createJwt(SECRET);
    const token = jwt.issueAccess(7, 70, 900, NOW);
    expect(jwt.verifyAccess(token, NOW)).not.toBeNull();
    const [header, body, signature] = token.split('.');
    const otherSignature = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(jwt.verifyAccess(`${header}.${body}.${otherSignature}`, NOW)).toBeNull();
    const otherBody = Buffer.from(JSON.stringify({ sub: 8, sid: 70, iat: 0, exp: 4e9, typ: 'access' })).toString(
      'base64url',
    );
    expect(jwt.verifyAccess(`${header}.${otherBody}.${signature}`, NOW)).toBeNull();
  });

  it('refuses a token signed with another secret, though this process found it good under that one', () => {
    const other = createJwt(`${SECRET}-rotated`);
    const token = other.issueAccess(7, 70, 900, NOW);
    expect(other.verifyAccess(token, NOW)).not.toBeNull();
    expect(createJwt(SECRET).verifyAccess(token, NOW)).toBeNull();
  });

  it('hands out claims no caller can change for the next one', () => {
    const jwt = createJwt(SECRET);
    const token = jwt.issueAccess(7, 70, 900, NOW);
    const claims = jwt.verifyAccess(token, NOW)!;
    expect(() => Object.assign(claims, { sub: 8 })).toThrow(TypeError);
    expect(jwt.verifyAccess(token, NOW)?.sub).toBe(7);
  });

  it('still checks every token when more are in use than it keeps', () => {
    const jwt = createJwt(SECRET);
    const tokens = Array.from({ length: 10_050 }, (_, i) => jwt.issueAccess(i + 1, i + 1, 900, NOW));
    for (const t of tokens) expect(jwt.verifyAccess(t, NOW)).not.toBeNull();
    expect(jwt.verifyAccess(tokens[0], NOW)?.sub).toBe(1);
    expect(jwt.verifyAccess(tokens[0], NOW + 900_000)).toBeNull();
  });
});
