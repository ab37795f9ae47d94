// decisions §13: a registration left unconfirmed for 7 days frees its address; sessions ended 30
// days ago go with their refresh tokens. The worker's tick is run by hand with a later clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/services/action-tokens';
import { API, otherIp, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const DAY = 24 * 3600_000;

describe.each(testDialects())('account cleanup on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('frees the address of a registration unconfirmed for 7 days, keeps a younger one and confirmed accounts', async () => {
    const pending = uniqueEmail('pending');
    const fresh = uniqueEmail('fresh');
    for (const email of [pending, fresh]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/register/`,
        payload: { email, password: 'secret123', confirm_password: 'secret123' },
        remoteAddress: otherIp(),
      });
      expect(res.statusCode).toBe(201);
    }
    const owner = await registerAndConfirm(t);
    await t.app.db
      .updateTable('users')
      .set({ created_at: Date.now() - 8 * DAY })
      .where('email', 'in', [pending, owner.email])
      .execute();
    const done = await t.app.accountCleanup.tick(Date.now());
    expect(done.registrations).toBeGreaterThanOrEqual(1);
    const emails = (
      await t.app.db.selectFrom('users').select('email').where('email', 'in', [pending, fresh, owner.email]).execute()
    )
      .map((r) => r.email)
      .sort();
    expect(emails).toEqual([fresh, owner.email].sort());
  });

  it('deletes sessions ended more than 30 days ago with their refresh tokens, keeps live ones', async () => {
    const a = await registerAndConfirm(t);
    const b = await registerAndConfirm(t);
    await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout/`,
      payload: { refresh: a.refresh },
      headers: { authorization: `Bearer ${a.access}` },
    });
    const done = await t.app.accountCleanup.tick(Date.now() + 2 * 3600_000 + 31 * DAY);
    expect(done.sessions).toBeGreaterThanOrEqual(1);
    const kept = async (raw: string) =>
      (await t.app.db.selectFrom('refresh_tokens').select('id').where('token_hash', '=', hashToken(raw)).execute())
        .length;
    expect(await kept(a.refresh)).toBe(0);
    expect(await kept(b.refresh)).toBe(1);
    const me = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/me`,
      headers: { authorization: `Bearer ${b.access}` },
    });
    expect(me.statusCode).toBe(200);
  });
});
