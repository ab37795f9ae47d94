// A call made offline and refused when it was replayed (decisions §10) is shown in the player's
// language: the outbox keeps the server's code, and the notice translates it when drawn — the
// mining codes, the app's own codes (the arcade's, a rate limit, …), the server's words only for a
// code the client has no text for — and names the arcade's tier claim instead of showing its path.
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxNotices } from '@/features/mining/components/outbox-notices';
import type { OutboxRow } from '@/lib/db';
import { testI18n } from './test-i18n';

afterEach(cleanup);

const i18nIn = (lng: 'en' | 'ru') => testI18n(lng, ['common', 'mining', 'errors'], ['en', 'ru']);

const ROWS: OutboxRow[] = [
  {
    id: 1,
    createdAt: 0,
    key: 'a',
    method: 'GET',
    path: 'mining/claim/',
    status: 'failed',
    error: 'There is no mining session to claim',
    code: 'nothing_to_claim',
  },
  {
    id: 2,
    createdAt: 0,
    key: 'b',
    method: 'POST',
    path: 'arcade/claim/',
    body: { tier: 2 },
    status: 'failed',
    error: "This tier's reward has already been claimed",
    code: 'tier_already_claimed',
  },
  {
    id: 3,
    createdAt: 0,
    key: 'c',
    method: 'POST',
    path: 'mining/apply-temp-boost/',
    body: { boost_id: 4, force_apply: false },
    status: 'failed',
    error: 'Something the client has never heard of',
    code: 'brand_new',
  },
  // Saved by an older version: the server's words only.
  { id: 4, createdAt: 0, key: 'd', method: 'GET', path: 'mining/start/', status: 'failed', error: 'Old words' },
];

async function notices(lng: 'en' | 'ru') {
  const i = await i18nIn(lng);
  render(
    <I18nextProvider i18n={i}>
      <OutboxNotices rows={ROWS} />
    </I18nextProvider>,
  );
  return screen.getAllByRole('alert').map((li) => li.querySelector('span')?.textContent);
}

describe('refused offline calls', () => {
  it('are shown in Russian to a Russian player: the code translated, the arcade claim named', async () => {
    expect(await notices('ru')).toEqual([
      'Получение награды: сервер отказал — Нет сессии, за которую можно получить награду.',
      'Получение награды уровня 2 аркадного сезона: сервер отказал — Награда этого уровня уже получена.',
      'Применение буста: сервер отказал — Something the client has never heard of',
      'Запуск майнинга: сервер отказал — Old words',
    ]);
  });

  it('follow the language the notice is drawn in, not the one the refusal came in', async () => {
    expect(await notices('en')).toEqual([
      'Your claim was refused: There is no mining session to claim.',
      "Claiming the arcade season tier 2 reward was refused: This tier's reward has already been claimed.",
      'Using a boost was refused: Something the client has never heard of',
      'Starting mining was refused: Old words',
    ]);
  });
});
