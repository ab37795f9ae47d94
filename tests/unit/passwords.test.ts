// The password hash format and its parameters (the API tests run at SCRYPT_LOG_N=14 for speed;
// this checks the production cost, 2^17, works within Node's memory limit and verifies across costs).
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '../../server/services/passwords';

describe('scrypt password hashes', () => {
  it('hashes at the OWASP cost (N=2^17, r=8, p=1) with the parameters in the string', async () => {
    const hash = await hashPassword('secret123', 17);
    expect(hash).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('secret123', hash)).toBe(true);
    expect(await verifyPassword('secret124', hash)).toBe(false);
    expect(needsRehash(hash, 17)).toBe(false);
  }, 30_000);

  it('verifies a hash made at another cost and says it needs upgrading', async () => {
    const cheap = await hashPassword('secret123', 10);
    expect(await verifyPassword('secret123', cheap)).toBe(true);
    expect(needsRehash(cheap, 17)).toBe(true);
  });

  it('salts every hash and refuses corrupt or oversized stored values without throwing', async () => {
    expect(await hashPassword('same1234', 10)).not.toBe(await hashPassword('same1234', 10));
    for (const stored of [
      '',
      'plain',
      'scrypt$40$8$1$abc$def',
      'scrypt$x$8$1$abc$def',
      'bcrypt$10$8$1$a$b',
      'scrypt$10$8$1$abc$',
    ]) {
      expect(await verifyPassword('secret123', stored)).toBe(false);
    }
  });

  it('does not block the event loop while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await hashPassword('secret123', 15);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
