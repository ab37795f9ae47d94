// The mining error texts of spec §8 (detail, then message, then the JSON body, else the default),
// the known refusal codes in the player's language, the network case, and the expired-sign-in prompt.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api-client';
import { miningFailure, promptIfSignedOut } from '@/features/mining/lib/mining-errors';
import { closeModal, modalStateAtom } from '@/lib/modal-state';
import { store } from '@/lib/store';

// A stand-in for i18next's t: shows which key (and values) would be translated.
const t = ((key: string) => `t(${key})`) as unknown as Parameters<typeof miningFailure>[2];

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(typeof body === 'string' ? body : JSON.stringify(body), {
          status,
          headers: { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' },
        }),
    ),
  );
}

async function failureOf(status: number, body: unknown, call: Parameters<typeof miningFailure>[1] = 'claim') {
  answer(status, body);
  try {
    await api('mining/claim/');
  } catch (err) {
    return miningFailure(err, call, t);
  }
  throw new Error('the call did not fail');
}

beforeEach(() => closeModal());
afterEach(() => vi.unstubAllGlobals());

describe('mining error texts (spec §8)', () => {
  it('shows the detail first', async () => {
    expect(
      (await failureOf(400, { detail: 'Refused for a reason', message: 'other', code: 'something_new' })).text,
    ).toBe('Refused for a reason');
  });

  it('then the message', async () => {
    expect((await failureOf(400, { message: 'Message only' })).text).toBe('Message only');
  });

  it('then the JSON body', async () => {
    expect((await failureOf(400, { reason: 42 })).text).toBe('{"reason":42}');
  });

  it("else the call's default", async () => {
    expect((await failureOf(500, '', 'start')).text).toBe('t(mining:errors.start)');
    expect((await failureOf(500, '', 'applyBoost')).text).toBe('t(mining:errors.applyBoost)');
  });

  it("shows known refusals in the player's language rather than the server's English detail", async () => {
    const f = await failureOf(400, { detail: 'Mining session is not finished yet', code: 'session_not_finished' });
    expect(f).toMatchObject({
      text: 't(mining:errors.codes.session_not_finished)',
      code: 'session_not_finished',
      status: 400,
      network: false,
    });
    expect(
      (await failureOf(503, { detail: 'Payments are not available', code: 'payments_unavailable' }, 'topUp')).text,
    ).toBe('t(mining:errors.codes.payments_unavailable)');
  });

  it('says "no connection" when no answer came', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    let failure;
    try {
      await api('mining/boosts/');
    } catch (err) {
      failure = miningFailure(err, 'boosts', t);
    }
    expect(failure).toMatchObject({ text: 't(errors:network)', network: true, status: 0 });
  });

  it('opens the not-authorized-miner prompt only for an expired sign-in (401)', async () => {
    promptIfSignedOut(await failureOf(400, { detail: 'x' }));
    expect(store.get(modalStateAtom).open).toBeNull();
    promptIfSignedOut(await failureOf(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' }));
    expect(store.get(modalStateAtom).open).toBe('notAuthorizedMiner');
  });
});
