// decisions §14: each Telegram `hash` signs in once. The init-data library checks the signature
// against the last `hash` field while the replay guard recorded the first, so a used init data with
// another `hash` in front signed in again, and proved /auth/reauth/, as often as anyone liked. Init
// data that gives any field twice is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '../helpers/account-calls';
import { signInitData } from '../helpers/telegram-signing';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

let nextTelegramId = 7_700_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

describe.each(testDialects())('Telegram init data given a field twice on %s', (dialect) => {
  let t: TestApp;
  let tg: TelegramStandIn;
  beforeAll(async () => {
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, tg.env);
  });
  afterAll(async () => {
    await t?.close();
    await tg?.close();
  });

  const { call } = accountCalls(() => t);
  const post = (url: string, payload: object, access?: string) => call('POST', url, { payload, access });
  /** The sessions of the account holding this Telegram id. */
  const sessionsOf = async (telegramId: number) =>
    (
      await t.app.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('sessions.id')
        .where('users.telegram_id', '=', String(telegramId))
        .execute()
    ).length;

  it('is refused: a used one with another hash in front signs in nowhere and proves nothing', async () => {
    const user = { id: ++nextTelegramId, first_name: 'Ivan', username: `ivan_${nextTelegramId}` };
    const once = signInitData(tg.botToken, { user });
    const first = await post('/auth/telegram/', { init_data: once });
    expect(first.statusCode, first.body).toBe(200);
    expect(await sessionsOf(user.id)).toBe(1);
    const doubled = [
      `hash=${'0'.repeat(64)}&${once}`,
      `${once}&hash=${'1'.repeat(64)}`,
      `${once}&auth_date=${Math.floor(Date.now() / 1000)}`,
    ];
    for (const data of doubled) {
      const res = await post('/auth/telegram/', { init_data: data });
      expect(res.statusCode, `${data.slice(0, 40)}…: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('telegram_data_invalid');
      const proof = await post('/auth/reauth/', { init_data: data }, first.json().access);
      expect(proof.statusCode, proof.body).toBe(400);
    }
    expect(await sessionsOf(user.id)).toBe(1);
  });
});
