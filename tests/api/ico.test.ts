import { accessFor } from '../helpers/accounts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIcoSettings } from '../../server/services/ico';
import { createUser } from '../../server/services/users';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

async function player(t: TestApp, ico: boolean) {
  const user = await t.app.db.transaction().execute(async (trx) => {
    const u = await createUser(trx, { username: `p_${randomBytes(5).toString('hex')}` });
    if (ico) await trx.updateTable('users').set({ ico: 1 }).where('id', '=', u.id).execute();
    return u;
  });
  return accessFor(t, Number(user.id));
}

const getIco = (t: TestApp, token?: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/ico/', headers: token ? { authorization: `Bearer ${token}` } : {} });

describe.each(testDialects())('ICO page data on %s', (dialect) => {
  describe('with the default settings', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(() => t.close());

    it('needs a signed-in player', async () => {
      const res = await getIco(t);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_not_valid');
    });

    it('is forbidden without the ico flag', async () => {
      const res = await getIco(t, await player(t, false));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'The token sale is not open for your account.', code: 'ico_not_enabled' });
    });

    it('shows the default figures to a player with the flag, buying closed', async () => {
      const res = await getIco(t, await player(t, true));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        stage: 1,
        price_usd: 0.05,
        tokens_sold: 0,
        tokens_total: 100_000_000,
        starts_at: null,
        ends_at: null,
        buying_open: false,
      });
    });
  });

  describe('with ICO_* settings', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, {
        ICO_STAGE: '2',
        ICO_PRICE_USD: '0.12',
        ICO_TOKENS_SOLD: '2500000.5',
        ICO_TOKENS_TOTAL: '50000000',
        ICO_STARTS_AT: '2027-01-15T12:00:00Z',
        ICO_ENDS_AT: '2027-03-01',
      });
    });
    afterAll(() => t.close());

    it('answers the configured figures', async () => {
      const res = await getIco(t, await player(t, true));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        stage: 2,
        price_usd: 0.12,
        tokens_sold: 2_500_000.5,
        tokens_total: 50_000_000,
        starts_at: '2027-01-15T12:00:00.000Z',
        ends_at: '2027-03-01T00:00:00.000Z',
        buying_open: false,
      });
    });
  });
});

describe('ICO settings checks', () => {
  it.each([
    [{ ICO_STAGE: '0' }, /ICO_STAGE/],
    [{ ICO_PRICE_USD: 'free' }, /ICO_PRICE_USD/],
    [{ ICO_TOKENS_TOTAL: '-5' }, /ICO_TOKENS_TOTAL/],
    [{ ICO_TOKENS_SOLD: '200', ICO_TOKENS_TOTAL: '100' }, /must not exceed/],
    [{ ICO_STARTS_AT: 'soon' }, /ICO_STARTS_AT/],
    [{ ICO_STARTS_AT: '2027-02-01', ICO_ENDS_AT: '2027-01-01' }, /after ICO_STARTS_AT/],
  ])('refuses to start with %o', (env, message) => {
    expect(() => loadIcoSettings(env)).toThrow(message);
  });
});
