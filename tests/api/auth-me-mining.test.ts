// The `mining` flag of /auth/me (read in the same query as the player): false without a session,
// true while one runs and while a finished one waits to be claimed, false again once claimed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSession, openSessionId } from '../helpers/mining';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('/auth/me mining flag on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('follows the player’s unclaimed session', async () => {
    const p = await createPlayer(t);
    const other = await createPlayer(t);
    const mining = async () => (await apiCall(t, p, 'GET', '/auth/me')).json().mining;
    expect(await mining()).toBe(false);
    expect((await apiCall(t, p, 'GET', '/mining/start/')).statusCode).toBe(200);
    expect(await mining()).toBe(true);
    // Another player's session is not this player's.
    expect((await apiCall(t, other, 'GET', '/auth/me')).json().mining).toBe(false);
    await endSession(t, (await openSessionId(t, p.id))!);
    expect(await mining()).toBe(true);
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    expect(await mining()).toBe(false);
  });
});
