// Every refusal a player can meet has a text of the client's own in both languages (issue 24): each
// code the server's sources can answer with is either translated (`errors:codes`, the mining
// codes, the quest messages) or named below as one no player's screen shows. The spec §5 field
// messages the client repeats (zod stays out of the bundle) are the schemas' own, and a refusal
// shows the player's language, the server's words only for a code the client does not know.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FetchError } from 'ofetch';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_INVALID,
  PASSWORD_INVALID,
  PASSWORD_REQUIRED,
  PASSWORDS_DIFFER,
  registerRequestSchema,
  USERNAME_CHARACTERS,
  usernameField,
} from '@shared/api/auth';
import { TASK_MESSAGE_CODES } from '@shared/task-messages';
import { FIELD_MESSAGE_KEYS, toApiFailure } from '@/lib/api-errors';
import { i18n, i18nReady } from '@/lib/i18n';
import { KNOWN_CODES as MINING_CODES } from '@/features/mining/lib/mining-errors';
import { load } from './locale-helpers';

const ROOT = resolve(import.meta.dirname, '../..');

/** Codes no player's screen shows, and why. */
const NOT_SHOWN: Record<string, string> = {
  invalid: 'bad fields: their messages are translated through errors:fields',
  invalid_event: 'the Stripe webhook',
  provider_unavailable: 'the Stripe webhook',
  payment_provider_unavailable: 'the YooKassa webhook',
  invalid_webhook_secret: 'the Telegram webhook',
  invalid_idempotency_key: 'the client makes its own keys',
  idempotency_key_reused: 'the client makes a new key per call',
  not_tether_order: 'the client sends a transaction only for its own USDT order',
  unknown_task: 'the client sends the quest titles the server gave it',
  tier_not_reached: 'the arcade page says it in its own words (arcade:…)',
};

/** Codes the server computes (a ternary, a template) that the scan cannot read. */
const COMPUTED = ['not_enough_gems', 'insufficient_funds', 'tx_reverted', 'tx_wrong_token', 'tx_amount_too_low'];

function serverCodes(): Set<string> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(ROOT, 'server'));
  const patterns = [
    /\brefuse\(\s*'([a-z_]+)'/g,
    /\bnew ApiError\(\s*\d+,\s*'([a-z_]+)'/g,
    /\b(?:notFound|conflict|forbidden)\((?:[^()]|\([^()]*\))*?,\s*'([a-z_]+)'\s*\)/g,
    /\binvalidField\((?:[^()]|\([^()]*\))*?,(?:[^()]|\([^()]*\))*?,\s*'([a-z_]+)'\s*\)/g,
  ];
  const codes = new Set<string>(COMPUTED);
  for (const f of files) {
    const source = readFileSync(f, 'utf8');
    for (const re of patterns) for (const m of source.matchAll(re)) codes.add(m[1]!);
  }
  return codes;
}

function fetchError(status: number, data: unknown, headers: Record<string, string> = {}): FetchError {
  const err = new FetchError(`[POST] "/api/v1/x": ${status}`);
  Object.assign(err, { status, statusCode: status, data, response: { status, headers: new Headers(headers) } });
  return err;
}

describe('server codes and the client’s texts', () => {
  it('gives every code a player can meet a text in both languages', () => {
    const codes = serverCodes();
    // The scan reads the sources: a sample proves it still finds codes in each form.
    for (const sample of ['email_not_confirmed', 'wallet_in_use', 'same_email', 'order_not_found', 'throttled'])
      expect(codes).toContain(sample);
    const mining = (lang: string) =>
      (load(lang, 'mining') as { errors: { codes: Record<string, string> } }).errors.codes;
    for (const lang of ['en', 'ru']) {
      const own = (load(lang, 'errors') as { codes: Record<string, string> }).codes;
      const missing = [...codes].filter(
        (c) =>
          !own[c] &&
          !((MINING_CODES as readonly string[]).includes(c) && mining(lang)[c]) &&
          !(TASK_MESSAGE_CODES as readonly string[]).includes(c) &&
          !NOT_SHOWN[c],
      );
      expect(missing, lang).toEqual([]);
    }
  });

  it('gives the codes sent outside the refusal helpers a text in both languages too', () => {
    // The restarting server, its last-resort error handler and the proxy in front of it answer any
    // call, a mining or offline one included; the scan above reads only `refuse(…)` and its kin.
    const sources = ['server/plugins/shutdown.ts', 'server/plugins/error-handler.ts', 'deploy/nginx/pxt.conf'];
    const codes = new Set(
      sources.flatMap((f) =>
        [...readFileSync(join(ROOT, f), 'utf8').matchAll(/\bcode"?\s*:\s*["']([a-z_]+)["']/g)].map((m) => m[1]!),
      ),
    );
    expect([...codes]).toEqual(expect.arrayContaining(['bad_gateway', 'server_error', 'shutting_down']));
    for (const lang of ['en', 'ru']) {
      const own = (load(lang, 'errors') as { codes: Record<string, string> }).codes;
      expect(
        [...codes].filter((c) => !own[c] && !NOT_SHOWN[c]),
        lang,
      ).toEqual([]);
    }
  });

  it('repeats the schemas’ field messages exactly, each with a text in both languages', () => {
    const schemaMessages = [
      EMAIL_INVALID,
      PASSWORD_INVALID,
      PASSWORDS_DIFFER,
      PASSWORD_REQUIRED,
      USERNAME_CHARACTERS,
      ...['', 'x'.repeat(40), 'ab​cde'].flatMap(
        (v) => usernameField.safeParse(v).error?.issues.map((i) => i.message) ?? [],
      ),
      ...(registerRequestSchema
        .safeParse({ email: 'a@b.co', password: 'x', confirm_password: 'y' })
        .error?.issues.map((i) => i.message) ?? []),
    ];
    for (const m of schemaMessages) expect(FIELD_MESSAGE_KEYS, m).toHaveProperty([m]);
    for (const lang of ['en', 'ru']) {
      const fields = (load(lang, 'errors') as { fields: Record<string, string> }).fields;
      for (const key of Object.values(FIELD_MESSAGE_KEYS)) expect(fields[key], `${lang} ${key}`).toBeTruthy();
    }
  });

  describe('in Russian', () => {
    beforeAll(async () => {
      await i18nReady.catch(() => undefined);
      i18n.addResourceBundle('ru', 'errors', load('ru', 'errors'), true, true);
      await i18n.changeLanguage('ru');
    });

    it('shows the code’s own text, with the wait from Retry-After', () => {
      const unconfirmed = toApiFailure(
        fetchError(400, { detail: 'Your e-mail address is not confirmed yet.', code: 'email_not_confirmed' }),
        'x',
      );
      expect(unconfirmed.message).toMatch(/^Ваша почта ещё не подтверждена/);
      expect(unconfirmed.code).toBe('email_not_confirmed');
      const throttled = toApiFailure(
        fetchError(
          429,
          { detail: 'Too many attempts. Try again in 600 seconds.', code: 'throttled' },
          { 'Retry-After': '42' },
        ),
        'x',
      );
      expect(throttled.message).toBe('Слишком много попыток. Попробуйте снова через 42 с.');
    });

    it('translates a coded field error and a schema field message; an unknown code keeps the server’s words', () => {
      const inUse = toApiFailure(
        fetchError(400, {
          detail: 'This email is already in use.',
          code: 'email_in_use',
          errors: [{ field: 'email', message: 'This email is already in use.' }],
        }),
        'x',
      );
      expect(inUse.message).toBe('Эта почта уже используется.');
      expect(inUse.fields).toEqual([{ field: 'email', message: 'Эта почта уже используется.' }]);
      const badName = toApiFailure(
        fetchError(400, {
          detail: USERNAME_CHARACTERS,
          code: 'invalid',
          errors: [{ field: 'username', message: USERNAME_CHARACTERS }],
        }),
        'x',
      );
      expect(badName.message).toBe('Ник содержит невидимые или похожие на другие символы');
      expect(badName.fields[0]!.message).toBe(badName.message);
      expect(toApiFailure(fetchError(400, { detail: 'Something new', code: 'brand_new' }), 'x').message).toBe(
        'Something new',
      );
    });
  });
});
