// Spec §4 "Referrals, assets and subscriptions": a request sets loading and clears the error; the
// answer or the failure ends loading; list and detail keep separate loading and error; an error can
// be set by hand; clearing the detail clears its error. And the §8 texts of each detail's failure.
import 'fake-indexeddb/auto';
import { FetchError } from 'ofetch';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { load } from './locale-helpers';

// The app's i18next reads /locales over the network: answer with the shipped files.
vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
  const m = /\/locales\/(\w+)\/(\w+)\.json$/.exec(String(input));
  if (!m) throw new TypeError(`unexpected fetch ${String(input)}`);
  return new Response(JSON.stringify(load(m[1], m[2])), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
});

const { i18n, i18nReady } = await import('@/lib/i18n');
const { answered, detailCleared, failed, initialListDetail, listDetailStore, requested, withError } =
  await import('@/lib/list-detail-state');
const { store } = await import('@/lib/store');
const { referralsState } = await import('@/features/referrals/state/referrals-state');
const { completedTasksState } = await import('@/features/tasks/state/completed-task-detail');
const { assetsState, subscriptionsState } = await import('@/features/mining/state/assets-state');

/** A refusal as ofetch reports it. */
function refusal(status: number, data?: unknown): FetchError {
  const err = new FetchError(`[GET] "/api/v1/x/": ${status}`);
  Object.assign(err, { status, statusCode: status, data, response: new Response(null, { status }) });
  return err;
}
const offline = () => new TypeError('Failed to fetch');

beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['referrals', 'tasks', 'mining', 'errors']);
});

describe('list and detail state (pure)', () => {
  type S = ReturnType<typeof initialListDetail<string[], string>>;
  const start: S = initialListDetail<string[], string>();

  it("a request sets loading and clears that part's error only", () => {
    let s = failed(failed(start, 'list', 'list broke'), 'detail', 'detail broke');
    s = requested(s, 'list');
    expect(s.list).toEqual({ data: null, loading: true, error: null });
    expect(s.detail).toEqual({ data: null, loading: false, error: 'detail broke' });
    s = requested(s, 'detail', '7');
    expect(s.detail.loading).toBe(true);
    expect(s.detail.error).toBeNull();
    expect(s.detailId).toBe('7');
  });

  it('the answer or the failure ends loading, each part on its own', () => {
    let s = requested(requested(start, 'list'), 'detail', '1');
    s = answered(s, 'list', ['a', 'b']);
    expect(s.list).toEqual({ data: ['a', 'b'], loading: false, error: null });
    expect(s.detail.loading).toBe(true);
    s = failed(s, 'detail', 'nope', '1');
    expect(s.detail).toEqual({ data: null, loading: false, error: 'nope' });
    expect(s.list.data).toEqual(['a', 'b']);
  });

  it('an error can be set by hand, on either part', () => {
    const s = withError(withError(start, 'detail', 'by hand'), 'list', 'list by hand');
    expect(s.detail.error).toBe('by hand');
    expect(s.list.error).toBe('list by hand');
    expect(withError(s, 'detail', null).detail.error).toBeNull();
  });

  it("clearing the detail clears its error (and not the list's), and drops an answer still on its way", () => {
    let s = failed(requested(start, 'detail', '3'), 'detail', 'gone', '3');
    s = withError(s, 'list', 'list error');
    s = detailCleared(s);
    expect(s.detail).toEqual({ data: null, loading: false, error: null });
    expect(s.detailId).toBeNull();
    expect(s.list.error).toBe('list error');
    expect(answered(s, 'detail', 'late', '3')).toBe(s);
    // Only the answer for the id last asked for counts.
    s = requested(requested(s, 'detail', '1'), 'detail', '2');
    expect(answered(s, 'detail', 'one', '1')).toBe(s);
    expect(answered(s, 'detail', 'two', '2').detail.data).toBe('two');
  });
});

describe('the store actions', () => {
  it('run the rules on the app store: loading while pending, then the answer', async () => {
    const texts = { list: () => 'list failed', detail: () => 'detail failed' };
    const state = listDetailStore<number[], string>(texts);
    let answer!: (v: string) => void;
    const pending = state.loadDetail(5, (id) => new Promise<string>((ok) => (answer = (v) => ok(`${v}:${id}`))));
    expect(store.get(state.atom).detail.loading).toBe(true);
    expect(store.get(state.atom).list.loading).toBe(false);
    answer('item');
    await pending;
    expect(store.get(state.atom).detail).toEqual({ data: 'item:5', loading: false, error: null });
    await state.loadList(() => Promise.reject(new Error('x')));
    expect(store.get(state.atom).list).toEqual({ data: null, loading: false, error: 'list failed' });
    expect(store.get(state.atom).detail.error).toBeNull();
    state.setError('detail', 'set by hand');
    expect(store.get(state.atom).detail.error).toBe('set by hand');
    state.clearDetail();
    expect(store.get(state.atom).detail).toEqual({ data: null, loading: false, error: null });
  });
});

describe('detail failure texts (spec §8)', () => {
  it('referrals: the catalogue text for an id not in the list, else "Referral detail not found"', async () => {
    await referralsState.loadDetail(9, () =>
      Promise.reject(refusal(404, { detail: 'User not found in your referral list', code: 'referral_not_found' })),
    );
    expect(store.get(referralsState.atom).detail.error).toBe('User not found in your referral list');
    await referralsState.loadDetail(9, () => Promise.reject(refusal(500)));
    expect(store.get(referralsState.atom).detail.error).toBe('Referral detail not found');
    await referralsState.loadList(() => Promise.reject(refusal(502)));
    expect(store.get(referralsState.atom).list.error).toBe('Could not fetch referrals');
    referralsState.clearDetail();
    expect(store.get(referralsState.atom).detail.error).toBeNull();
    expect(store.get(referralsState.atom).list.error).toBe('Could not fetch referrals');
  });

  it('assets: the server\'s message, else "Unknown asset detail error"', async () => {
    await assetsState.loadDetail(1, () => Promise.reject(refusal(404, { detail: 'Not found', code: 'not_found' })));
    expect(store.get(assetsState.atom).detail.error).toBe('Not found');
    await assetsState.loadDetail(1, () => Promise.reject(refusal(500)));
    expect(store.get(assetsState.atom).detail.error).toBe('Unknown asset detail error');
    await assetsState.loadList(() => Promise.reject(refusal(500)));
    expect(store.get(assetsState.atom).list.error).toBe('Unknown assets list error');
  });

  it('subscriptions: "Failed to load subscription" and "Failed to load subscriptions"; offline is said as such', async () => {
    await subscriptionsState.loadDetail(2, () => Promise.reject(refusal(500)));
    expect(store.get(subscriptionsState.atom).detail.error).toBe('Failed to load subscription');
    await subscriptionsState.loadList(() => Promise.reject(refusal(503, 'Service Unavailable')));
    expect(store.get(subscriptionsState.atom).list.error).toBe('Failed to load subscriptions');
    await subscriptionsState.loadList(() => Promise.reject(offline()));
    expect(store.get(subscriptionsState.atom).list.error).toBe(load('en', 'errors').network);
  });

  it('completed tasks: the server\'s detail, else "Request failed"', async () => {
    await completedTasksState.loadDetail(4, () =>
      Promise.reject(refusal(404, { detail: 'Task not found.', code: 'not_found' })),
    );
    expect(store.get(completedTasksState.atom).detail.error).toBe('Task not found.');
    await completedTasksState.loadDetail(4, () => Promise.reject(refusal(500)));
    expect(store.get(completedTasksState.atom).detail.error).toBe('Request failed');
  });
});
