// The landing's one number, the Auto Miner's price, is rendered again when a visitor's first tap
// starts the app and hydrates the page. Written through `common:units.gems` (`{{count, number}}`)
// it made the page's first Intl.NumberFormat there: loading ICU's number data, a 50 ms task with the
// CPU 4× slower on the 2-core machine, between the tap and the sign-in dialog. The landing's own
// plural forms write the count as it is, which is what Intl writes for a price under 1,000.
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTO_MINER_PRICE_GEMS } from '@shared/constants';
import { shippedI18n } from './locale-helpers';

let i18n: i18n;

beforeAll(async () => {
  i18n = await shippedI18n();
});

describe.each(['en', 'ru'] as const)('the landing’s Auto Miner price (%s)', (lng) => {
  it('is written without an Intl.NumberFormat', () => {
    const made = vi.spyOn(Intl, 'NumberFormat');
    try {
      expect(i18n.t('landing:loop.autoText', { lng, price: AUTO_MINER_PRICE_GEMS })).toContain(
        String(AUTO_MINER_PRICE_GEMS),
      );
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it('reads as the Gems unit writes it with Intl (a price of 1,000 or more would need the grouping back)', () => {
    const unit = i18n.t('common:units.gems', { lng, count: AUTO_MINER_PRICE_GEMS });
    expect(unit).toContain(new Intl.NumberFormat(lng).format(AUTO_MINER_PRICE_GEMS));
    expect(i18n.t('landing:loop.autoText', { lng, price: AUTO_MINER_PRICE_GEMS })).toContain(unit);
  });
});
