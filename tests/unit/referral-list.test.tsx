// The referrals page's list (decisions §12 Active friends): every friend is shown, the active ones
// are marked, and the others say why they do not count yet, in English and Russian.
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { ReferralList } from '@/features/referrals/components/referral-list';
import type { ReferralRow } from '@/lib/referrals';
import { load } from './locale-helpers';
import { testI18n } from './test-i18n';

const rows: ReferralRow[] = [
  { id: 3, username: 'miner_amy', wallet_address: null, joined_at: '2026-11-20T10:00:00.000Z', active: true },
  { id: 2, username: 'lurker_bob', wallet_address: null, joined_at: '2026-11-19T10:00:00.000Z', active: false },
  // Stored before the server sent the mark: not counted until the next refresh.
  {
    id: 1,
    username: 'old_cache',
    wallet_address: null,
    joined_at: '2026-11-18T10:00:00.000Z',
  } as unknown as ReferralRow,
];

async function renderIn(lng: 'en' | 'ru') {
  const i18n = await testI18n(lng, ['common', 'referrals']);
  render(
    <I18nextProvider i18n={i18n}>
      <ReferralList rows={rows} loading={false} error={null} onRetry={() => {}} />
    </I18nextProvider>,
  );
  return (key: string) => {
    const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], load(lng, 'referrals'));
    return value as string;
  };
}

afterEach(cleanup);

describe.each(['en', 'ru'] as const)('referral list in %s', (lng) => {
  it('shows every friend, marks the active ones and explains why the others do not count yet', async () => {
    const text = await renderIn(lng);
    const items = screen.getAllByTestId('referral-row');
    expect(items).toHaveLength(3);
    const [amy, bob, cached] = items;

    expect(within(amy).getByText('miner_amy')).toBeTruthy();
    expect(within(amy).getByText(text('list.active'))).toBeTruthy();
    expect(within(amy).queryByText(text('list.inactiveWhy'))).toBeNull();
    expect(amy.className).toContain('ref-list__item--active');

    for (const row of [bob, cached]) {
      expect(within(row).getByText(text('list.inactive'))).toBeTruthy();
      expect(within(row).getByText(text('list.inactiveWhy'))).toBeTruthy();
      expect(row.className).toContain('ref-list__item--inactive');
    }
    // The rule is stated once above the list, and the title counts every friend.
    expect(screen.getByText(text('list.rule'))).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(text('list.title').replace('{{count}}', '3'));
  });
});

describe('the texts', () => {
  it('differ between the languages (the Russian file is translated)', () => {
    const en = load('en', 'referrals').list as Record<string, string>;
    const ru = load('ru', 'referrals').list as Record<string, string>;
    for (const key of ['rule', 'active', 'inactive', 'inactiveWhy']) expect(ru[key]).not.toBe(en[key]);
    expect(ru.inactiveWhy).toMatch(/майнинг/);
    expect(en.inactiveWhy).toMatch(/mining session/);
  });
});
