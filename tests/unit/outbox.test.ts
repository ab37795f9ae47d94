// The offline outbox (decisions §10) against a fake network: the real API client and the real Dexie
// tables (fake-indexeddb), fetch replaced by a scripted server.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { API_TIMEOUT_MS } from '@shared/constants';
import { dismissOutboxEntry, onOutboxReplayed, replayOutbox, sendOrQueue, type SendResult } from '@/lib/outbox';

interface SeenCall {
  method: string;
  url: string;
  key: string | null;
  body: unknown;
}

type Answer = { status: number; body: unknown } | 'network-down';

/** A scripted server: answers calls in order with what `answer` returns; records every call that reached it. */
function fakeServer(answer: (call: SeenCall, index: number) => Answer) {
  const seen: SeenCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const call: SeenCall = {
      method: init?.method ?? 'GET',
      url,
      key: headers.get('Idempotency-Key'),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    const a = answer(call, seen.length);
    if (a === 'network-down') throw new TypeError('Failed to fetch');
    seen.push(call);
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { seen };
}

let online = true;

beforeEach(async () => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  await db.outbox.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const rows = () => db.outbox.orderBy('id').toArray();

describe('sendOrQueue', () => {
  it('sends at once when online, with an Idempotency-Key, and stores nothing', async () => {
    const server = fakeServer(() => ({ status: 200, body: { id: 7, claimed: true } }));
    const result = await sendOrQueue<{ id: number }>({ method: 'GET', path: 'mining/claim/' });
    expect(result).toEqual({ status: 'sent', data: { id: 7, claimed: true } });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0].url).toContain('/api/v1/mining/claim/');
    expect(server.seen[0].key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(await rows()).toEqual([]);
  });

  it('queues without touching the network when the device is offline', async () => {
    const server = fakeServer(() => ({ status: 200, body: {} }));
    online = false;
    const result = await sendOrQueue({ method: 'POST', path: 'mining/select-temp-boost/', body: { boost_id: 3 } });
    expect(result.status).toBe('queued');
    expect(server.seen).toHaveLength(0);
    expect(await rows()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: 'mining/select-temp-boost/',
        body: { boost_id: 3 },
        status: 'pending',
        key: (result as { key: string }).key,
      }),
    ]);
  });

  it('queues when the request fails on the network, keeping the key it was first sent with', async () => {
    const keys: (string | null)[] = [];
    let down = true;
    fakeServer((call) => {
      keys.push(call.key);
      return down ? 'network-down' : { status: 200, body: { ok: true } };
    });
    const result = await sendOrQueue({ method: 'GET', path: 'mining/claim/' });
    expect(result.status).toBe('queued');
    down = false;
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 1, failed: 0, pending: 0, sentPaths: ['mining/claim/'] });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toBe((result as { key: string }).key);
    expect((await rows())[0]).toMatchObject({ status: 'done', error: null });
  });

  it('queues a call that got no answer within API_TIMEOUT_MS (online, but nothing comes back), keeping its key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const keys: (string | null)[] = [];
    // The network of a tunnel: the request leaves, nothing ever comes back, fetch waits until aborted.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_input: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            keys.push(new Headers(init?.headers).get('Idempotency-Key'));
            init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
          }),
      ),
    );
    let result: SendResult<unknown> | null = null;
    void sendOrQueue({ method: 'POST', path: 'mining/claim/' }).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(keys).toHaveLength(1);
    expect(result).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result).not.toBeNull());
    expect(result).toEqual({ status: 'queued', id: expect.any(Number), key: keys[0] });
    expect(await rows()).toEqual([expect.objectContaining({ path: 'mining/claim/', status: 'pending', key: keys[0] })]);
    vi.useRealTimers();

    // The server did pay it (its answer was what got lost): the replay's same key is answered from its store.
    const server = fakeServer(() => ({ status: 200, body: { reward: 5 } }));
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 1, pending: 0, answers: [{ path: 'mining/claim/', data: { reward: 5 } }] });
    expect(server.seen.map((c) => c.key)).toEqual([keys[0]]);
  });

  it('throws an HTTP refusal to the caller instead of queueing it', async () => {
    fakeServer(() => ({
      status: 400,
      body: { detail: 'Mining session is not finished yet', code: 'session_not_finished' },
    }));
    await expect(sendOrQueue({ method: 'GET', path: 'mining/claim/' })).rejects.toMatchObject({ status: 400 });
    expect(await rows()).toEqual([]);
  });

  it('waits behind calls queued earlier that still cannot be sent', async () => {
    online = false;
    await sendOrQueue({ method: 'GET', path: 'mining/claim/' });
    online = true;
    const server = fakeServer(() => 'network-down');
    const second = await sendOrQueue({ method: 'GET', path: 'mining/start/' });
    expect(second.status).toBe('queued');
    expect(server.seen).toHaveLength(0);
    expect((await rows()).map((r) => [r.path, r.status])).toEqual([
      ['mining/claim/', 'pending'],
      ['mining/start/', 'pending'],
    ]);
  });

  it('sends the queued calls first when the network is back, then the new one', async () => {
    online = false;
    await sendOrQueue({ method: 'GET', path: 'mining/claim/' });
    online = true;
    const server = fakeServer(() => ({ status: 200, body: {} }));
    const result = await sendOrQueue({ method: 'GET', path: 'mining/start/' });
    expect(result.status).toBe('sent');
    expect(server.seen.map((c) => c.url.replace(/^.*\/api\/v1\//, ''))).toEqual(['mining/claim/', 'mining/start/']);
  });
});

describe('replayOutbox', () => {
  async function queueOffline(...paths: string[]) {
    online = false;
    const keys: string[] = [];
    for (const path of paths) {
      const r = await sendOrQueue({
        method: path.includes('boost') ? 'POST' : 'GET',
        path,
        body: path.includes('boost') ? { boost_id: 1, force_apply: false } : undefined,
      });
      keys.push((r as { key: string }).key);
    }
    online = true;
    return keys;
  }

  it('sends pending calls in the order they were made, each with its original key and body', async () => {
    const keys = await queueOffline('mining/claim/', 'mining/start/', 'mining/apply-temp-boost/');
    const server = fakeServer((c) => ({ status: 200, body: { answered: c.url.replace(/^.*\/api\/v1\//, '') } }));
    const summary = await replayOutbox();
    expect(summary).toEqual({
      sent: 3,
      failed: 0,
      pending: 0,
      sentPaths: ['mining/claim/', 'mining/start/', 'mining/apply-temp-boost/'],
      // Each answer, for the page that shows it (a queued claim's reward moment, issue 24).
      answers: ['mining/claim/', 'mining/start/', 'mining/apply-temp-boost/'].map((path) => ({
        path,
        data: { answered: path },
      })),
    });
    expect(server.seen.map((c) => [c.method, c.url.replace(/^.*\/api\/v1\//, ''), c.key])).toEqual([
      ['GET', 'mining/claim/', keys[0]],
      ['GET', 'mining/start/', keys[1]],
      ['POST', 'mining/apply-temp-boost/', keys[2]],
    ]);
    expect(server.seen[2].body).toEqual({ boost_id: 1, force_apply: false });
    expect((await rows()).map((r) => r.status)).toEqual(['done', 'done', 'done']);
    // Nothing is sent twice.
    await replayOutbox();
    expect(server.seen).toHaveLength(3);
  });

  it("marks a refused call failed with the server's code and text, goes on with the next, and never retries it", async () => {
    await queueOffline('mining/claim/', 'mining/start/');
    const server = fakeServer((call) =>
      call.url.endsWith('mining/claim/')
        ? { status: 400, body: { detail: 'Mining session is not finished yet', code: 'session_not_finished' } }
        : { status: 200, body: {} },
    );
    const seenSummaries: unknown[] = [];
    const off = onOutboxReplayed((s) => seenSummaries.push(s));
    const summary = await replayOutbox();
    off();
    expect(summary).toMatchObject({ sent: 1, failed: 1, pending: 0 });
    expect(seenSummaries).toEqual([summary]);
    // The code is kept so the notice shows the refusal in the player's language (outbox-notices.test.tsx).
    expect((await rows()).map((r) => [r.path, r.status, r.error, r.code ?? null])).toEqual([
      ['mining/claim/', 'failed', 'Mining session is not finished yet', 'session_not_finished'],
      ['mining/start/', 'done', null, null],
    ]);
    await replayOutbox();
    expect(server.seen).toHaveLength(2);
  });

  it('keeps the message, then the JSON body, when a refusal has no detail', async () => {
    await queueOffline('mining/claim/', 'mining/start/');
    fakeServer((call) =>
      call.url.endsWith('mining/claim/')
        ? { status: 400, body: { message: 'no claim' } }
        : { status: 404, body: { code: 'x' } },
    );
    await replayOutbox();
    expect((await rows()).map((r) => [r.error, r.code])).toEqual([
      ['no claim', null],
      ['{"code":"x"}', 'x'],
    ]);
  });

  it('stops at a network failure and leaves that call and the later ones pending, in order', async () => {
    const keys = await queueOffline('mining/claim/', 'mining/start/', 'mining/select-temp-boost/');
    let down = false;
    const server = fakeServer((_call, i) => {
      if (i === 1) down = true;
      return down ? 'network-down' : { status: 200, body: {} };
    });
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 1, failed: 0, pending: 2 });
    expect((await rows()).map((r) => r.status)).toEqual(['done', 'pending', 'pending']);
    // Back online: the rest goes, still in order and with the same keys.
    down = false;
    const attempts: (string | null)[] = [];
    fakeServer((call) => {
      attempts.push(call.key);
      return { status: 200, body: {} };
    });
    expect(await replayOutbox()).toMatchObject({ sent: 2, pending: 0 });
    expect(attempts).toEqual([keys[1], keys[2]]);
    expect(server.seen).toHaveLength(1);
  });

  it('treats a 5xx, a throttle and a key still in progress as "try later", not as a refusal', async () => {
    for (const answer of [
      { status: 503, body: { detail: 'down' } },
      { status: 429, body: { detail: 'slow down' } },
      { status: 409, body: { detail: 'busy', code: 'idempotency_in_progress' } },
    ]) {
      await db.outbox.clear();
      await queueOffline('mining/claim/', 'mining/start/');
      fakeServer(() => answer);
      expect(await replayOutbox()).toMatchObject({ sent: 0, failed: 0, pending: 2 });
      expect((await rows()).map((r) => r.status)).toEqual(['pending', 'pending']);
    }
  });

  it('does nothing while the device is offline', async () => {
    await queueOffline('mining/claim/');
    const server = fakeServer(() => ({ status: 200, body: {} }));
    online = false;
    expect(await replayOutbox()).toMatchObject({ sent: 0, pending: 1 });
    expect(server.seen).toHaveLength(0);
  });

  it('runs one replay at a time: overlapping triggers send each call once', async () => {
    await queueOffline('mining/claim/', 'mining/start/');
    const server = fakeServer(() => ({ status: 200, body: {} }));
    const [a, b] = await Promise.all([replayOutbox(), replayOutbox()]);
    expect(a).toBe(b);
    expect(server.seen).toHaveLength(2);
  });

  it('a call left "sending" by a closed page is sent again with its key', async () => {
    const [key] = await queueOffline('mining/claim/');
    const [row] = await rows();
    await db.outbox.update(row.id!, { status: 'sending' });
    const server = fakeServer(() => ({ status: 200, body: {} }));
    expect(await replayOutbox()).toMatchObject({ sent: 1 });
    expect(server.seen[0].key).toBe(key);
  });

  it('lets the player dismiss a failed call', async () => {
    await queueOffline('mining/claim/');
    fakeServer(() => ({ status: 400, body: { detail: 'nope' } }));
    await replayOutbox();
    const [row] = await rows();
    await dismissOutboxEntry(row.id!);
    expect(await rows()).toEqual([]);
  });
});
