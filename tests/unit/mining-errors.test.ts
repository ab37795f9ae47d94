// The mining error texts of spec §8 (detail, then message, then the JSON body, else the default),
// the known refusal codes in the player's language, the network case, and the expired-sign-in prompt.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api-client';
import { toApiFailure } from '@/lib/api-errors';
import { i18n, i18nReady } from '@/lib/i18n';
import { miningFailure, promptIfSignedOut } from '@/features/mining/lib/mining-errors';
import { closeModal, modalStateAtom } from '@/lib/modal-state';
import { store } from '@/lib/store';
import { load } from './locale-helpers';

// A stand-in for i18next's t: shows which key (and values) would be translated.
const t = ((key: string) => `t(${key})`) as unknown as Parameters<typeof miningFailure>[2];

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(typeof body === 'string' ? body : JSON.stringify(body), {
          status,
          headers: { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers },
        }),
    ),
  );
}

async function errorOf(status: number, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  answer(status, body, headers);
  try {
    await api('mining/claim/');
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}

async function failureOf(status: number, body: unknown, call: Parameters<typeof miningFailure>[1] = 'claim') {
  return miningFailure(await errorOf(status, body), call, t);
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

describe('codes every screen shares, on the mining screens (in Russian)', () => {
  beforeAll(async () => {
    await i18nReady.catch(() => undefined);
    for (const ns of ['errors', 'mining']) i18n.addResourceBundle('ru', ns, load('ru', ns), true, true);
    await i18n.changeLanguage('ru');
  });

  // The answers the server (plugins/rate-limits.ts, shutdown.ts, error-handler.ts) and
  // the proxy in front of it (deploy/nginx/pxt.conf) give to any call, with their English details.
  const answers: [code: string, status: number, detail: string, headers: Record<string, string>, ru: string][] = [
    [
      'rate_limited',
      429,
      'Too many requests. Try again in 12 seconds.',
      { 'Retry-After': '12' },
      'Слишком много запросов. Попробуйте снова через 12 с.',
    ],
    [
      'shutting_down',
      503,
      'The server is restarting; try again.',
      { 'Retry-After': '1' },
      'Сервер перезапускается. Попробуйте снова через несколько секунд.',
    ],
    [
      'bad_gateway',
      502,
      'The server could not be reached; try again.',
      {},
      'Сервер сейчас недоступен. Попробуйте снова через несколько секунд.',
    ],
    ['server_error', 500, 'Internal server error', {}, 'Внутренняя ошибка сервера. Попробуйте позже.'],
  ];

  it.each(answers)(
    '%s (%i): the same Russian text as the rest of the app',
    async (code, status, detail, headers, ru) => {
      const err = await errorOf(status, { detail, code }, headers);
      const shown = miningFailure(err, 'claim', i18n.getFixedT('ru', 'mining') as never);
      expect(shown).toMatchObject({ text: ru, code, status, network: false });
      // One translation: the one every other screen shows through lib/api-errors.ts.
      expect(toApiFailure(err, 'x').message).toBe(ru);
    },
  );

  it('keeps its own texts for the mining codes and the server’s words for a code nobody knows', async () => {
    const t = i18n.getFixedT('ru', 'mining') as never;
    expect(
      miningFailure(
        await errorOf(400, { detail: 'This boost has already been used', code: 'boost_already_used' }),
        'applyBoost',
        t,
      ).text,
    ).toBe('Этот буст уже использован.');
    expect(miningFailure(await errorOf(400, { detail: 'Brand new refusal', code: 'brand_new' }), 'claim', t).text).toBe(
      'Brand new refusal',
    );
  });
});
