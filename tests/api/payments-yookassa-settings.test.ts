// YooKassa's settings (decisions §8): off without a shop, refused when half set, with a bad rate or
// plain http in production; the USD price charged in roubles at the rate, rounded up to the kopeck.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { roublesFor } from '../../server/services/payments/yookassa-provider';

describe('YooKassa settings', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-yk-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) =>
    loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'x'.repeat(32),
      VAPID_PUBLIC_KEY: 'a',
      VAPID_PRIVATE_KEY: 'b',
      ...env,
    });
  const shop = { YOOKASSA_SHOP_ID: '1', YOOKASSA_SECRET_KEY: 'live_x', YOOKASSA_RUB_PER_USD: '92.5' };

  it('is off without a shop, and refuses half a shop, a missing or bad rate, and plain http in production', () => {
    expect(load({}).yookassa).toBeNull();
    expect(load(shop).yookassa).toEqual({
      shopId: '1',
      secretKey: 'live_x',
      apiBase: 'https://api.yookassa.ru/v3',
      rubPerUsd: '92.5',
    });
    expect(() => load({ YOOKASSA_SHOP_ID: '1' })).toThrow(/go together/);
    expect(() => load({ ...shop, YOOKASSA_RUB_PER_USD: '' })).toThrow(/YOOKASSA_RUB_PER_USD/);
    for (const bad of ['0', '-90', '90,5', '1e3', '92.12345', 'abc'])
      expect(() => load({ ...shop, YOOKASSA_RUB_PER_USD: bad }), bad).toThrow(/YOOKASSA_RUB_PER_USD/);
    expect(() =>
      load({
        ...shop,
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.test',
        YOOKASSA_API_BASE: 'http://api.yookassa.ru/v3',
      }),
    ).toThrow(/https in production/);
    expect(() => load({ ...shop, YOOKASSA_API_BASE: 'ftp://x' })).toThrow(/https/);
  });

  it('charges the USD price at the rate, rounded up to the kopeck', () => {
    expect(roublesFor(499, '90')).toBe('449.10');
    expect(roublesFor(499, '92.5')).toBe('461.58'); // 461.575
    expect(roublesFor(4990, '92.1234')).toBe('4596.96'); // 4596.95766
    expect(roublesFor(1, '0.0001')).toBe('0.01');
  });
});
