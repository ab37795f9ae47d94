// A use made offline counts at once (decisions §10): the stored boosts and sessions change only when
// the server answers, so the boost dialog and the guide read the outbox too. A boost whose apply or
// select waits there is not offered a second time (the second apply of one boost is refused on
// reconnect as already used), and the guide's "Earn PXT" does not queue a second start.
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import BoostSelectModal from '@/features/mining/components/boost-select-modal';
import GuideModal from '@/features/mining/components/guide-modal';
import { queuedBoostUses, tempBoostStock, type BoostRow } from '@/features/mining/state/mining-data';
import { db, type OutboxRow } from '@/lib/db';
import { closeModal, guideGoTo, modalStateAtom, openModal } from '@/lib/modal-state';
import { sendOrQueue } from '@/lib/outbox';
import { setTokens } from '@/lib/session';
import { store } from '@/lib/store';
import { en } from './locale-helpers';
import { testI18n } from './test-i18n';

const HOUR = 3600;

async function renderMining(node: ReactNode) {
  const i = await testI18n('en', ['common', 'mining', 'errors']);
  render(
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i}>
        <MemoryRouter>{node}</MemoryRouter>
      </I18nextProvider>
    </JotaiProvider>,
  );
}

const boost = (id: number, hours: number, more: Partial<BoostRow> = {}): BoostRow => ({
  id: `temporary:${id}`,
  boostId: id,
  kind: 'boost',
  boost_type: 'temporary',
  is_active: false,
  value: 2,
  is_selected: false,
  duration_seconds: hours * HOUR,
  ...more,
});

async function storeRunningSession() {
  const now = Date.now();
  await db.sessions.put({
    id: 1,
    kind: 'session',
    started_at: new Date(now - HOUR * 1000).toISOString(),
    ends_at: new Date(now + 6 * HOUR * 1000).toISOString(),
    claimed: false,
    claimed_at: null,
    rate_per_hour: 1,
    boost_percent: 0,
    reward: 8,
    temporary_boosts: [],
  });
}

const openRows = async () => (await db.outbox.orderBy('id').toArray()).filter((r) => r.status === 'pending');
const boostIdsQueued = async () =>
  (await openRows()).map((r) => [r.path, (r.body as { boost_id: number }).boost_id] as const);
const settle = () => act(() => new Promise((r) => setTimeout(r, 50)));

beforeEach(async () => {
  // Offline: every call is queued, none reaches a server.
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  await Promise.all([db.outbox.clear(), db.sessions.clear(), db.boosts.clear()]);
  setTokens({ access: 'access', refresh: 'refresh' });
  closeModal();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the boost stock counts the uses waiting in the outbox', () => {
  const queued = (path: string, boostId: number, status: OutboxRow['status'] = 'pending'): OutboxRow => ({
    createdAt: 0,
    key: `k${boostId}`,
    method: 'POST',
    path,
    body: { boost_id: boostId, force_apply: false },
    status,
  });

  it('takes a queued apply out of the stock and marks a queued select selected; a refused one counts for nothing', () => {
    const rows = [boost(11, 1), boost(12, 1), boost(13, 1), boost(21, 4)];
    const uses = queuedBoostUses([
      queued('mining/apply-temp-boost/', 11),
      queued('mining/select-temp-boost/', 12),
      queued('mining/apply-temp-boost/', 21, 'failed'),
    ]);
    expect(tempBoostStock(rows, [1, 4], uses)).toEqual([
      { hours: 1, durationSeconds: HOUR, ids: [12, 13], freeIds: [13], selected: 1 },
      { hours: 4, durationSeconds: 4 * HOUR, ids: [21], freeIds: [21], selected: 0 },
    ]);
  });
});

describe('boost dialog, offline', () => {
  it('during a session: a second Use applies the next boost, and none is offered once all are queued', async () => {
    await storeRunningSession();
    await db.boosts.bulkPut([boost(11, 1), boost(12, 1)]);
    await renderMining(<BoostSelectModal />);
    const row = () => screen.getByTestId('boost-row-1');
    const use = await screen.findByRole('button', { name: en('mining:boostSelect.useLabel', { hours: 1 }) });
    await waitFor(() => expect(row().textContent).toContain(en('mining:boostSelect.owned', { count: 2 })));

    fireEvent.click(use);
    await screen.findByText(en('mining:boostSelect.queued'));
    await waitFor(() => expect(row().textContent).toContain(en('mining:boostSelect.owned', { count: 1 })));
    expect((use as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(use);
    await waitFor(async () => expect(await openRows()).toHaveLength(2));
    expect(await boostIdsQueued()).toEqual([
      ['mining/apply-temp-boost/', 11],
      ['mining/apply-temp-boost/', 12],
    ]);
    await waitFor(() => expect(row().textContent).toContain(en('mining:boostSelect.owned', { count: 0 })));
    expect((use as HTMLButtonElement).disabled).toBe(true);
  });

  it('without a session: a queued select shows as selected and the next Use selects another boost', async () => {
    await db.boosts.bulkPut([boost(11, 1), boost(12, 1)]);
    await renderMining(<BoostSelectModal />);
    const row = () => screen.getByTestId('boost-row-1');
    const use = await screen.findByRole('button', { name: en('mining:boostSelect.useLabel', { hours: 1 }) });
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(false));

    fireEvent.click(use);
    await screen.findByText(en('mining:boostSelect.queued'));
    // As the server's answer will show it: still owned, now selected.
    await waitFor(() => expect(row().textContent).toContain(en('mining:boostSelect.selected', { count: 1 })));
    expect(row().textContent).toContain(en('mining:boostSelect.owned', { count: 2 }));

    fireEvent.click(use);
    await waitFor(async () => expect(await openRows()).toHaveLength(2));
    expect(await boostIdsQueued()).toEqual([
      ['mining/select-temp-boost/', 11],
      ['mining/select-temp-boost/', 12],
    ]);
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(true));
  });
});

describe('guide, offline', () => {
  async function earnOnLastStep() {
    openModal('guide');
    guideGoTo(5);
    await renderMining(<GuideModal />);
    // The stored sessions and the outbox are read (live queries) before the player gets to tap.
    await settle();
    fireEvent.click(screen.getByRole('button', { name: en('mining:guide.earn') }));
    await waitFor(() => expect(store.get(modalStateAtom).open).toBeNull());
  }

  it('"Earn PXT" queues the start when none waits', async () => {
    await earnOnLastStep();
    expect((await openRows()).map((r) => r.path)).toEqual(['mining/start/']);
  });

  it('"Earn PXT" does not queue a second start when one already waits in the outbox', async () => {
    expect(await sendOrQueue({ method: 'GET', path: 'mining/start/' })).toMatchObject({ status: 'queued' });
    await earnOnLastStep();
    expect((await openRows()).map((r) => r.path)).toEqual(['mining/start/']);
  });
});
