// The server of the verified-follow tests (decisions §14): the channels and the Discord server
// configured, answered by a Bot API stand-in and a Discord stand-in over real HTTP, and the calls
// and checks those tests share.
import { expect } from 'vitest';
import type { Dialect } from '../../server/db/schema';
import { type DiscordStandIn, startDiscordStandIn } from './discord-stand-in';
import { call, expectBalanceMatchesLedger, ledgerRows, type Player } from './quest-fixtures';
import { startTelegramStandIn, type TelegramStandIn } from './telegram-stand-in';
import { createTestApp, type TestApp } from './test-app';

export const APP_URL = 'http://app.test';

export interface VerifiedFollows {
  t: TestApp;
  tg: TelegramStandIn;
  dc: DiscordStandIn;
  close(): Promise<void>;
}

export async function startVerifiedFollows(dialect: Dialect): Promise<VerifiedFollows> {
  const tg = await startTelegramStandIn({ channels: { ru: '@pxt_ru', en: '@pxt_en' } });
  const dc = await startDiscordStandIn({ appUrl: APP_URL });
  const t = await createTestApp(dialect, { ...tg.env, ...dc.env });
  // A stand-in that hangs is given up on quickly (the default is Telegram's and Discord's 10 s).
  t.app.config.telegram!.timeoutMs = 400;
  t.app.config.discord!.timeoutMs = 400;
  return {
    t,
    tg,
    dc,
    async close() {
      await t.close();
      await tg.close();
      await dc.close();
    },
  };
}

export const follow = (t: TestApp, p: Player, network: string) =>
  call(t, p, 'POST', '/tasks/social-media-reward/', { network });
export const socialRows = (t: TestApp, p: Player) => ledgerRows(t, p.id, 'quest_social');

/** How many checks of `network` ended in `result` so far (`pxt_follow_checks_total`). */
export async function followChecks(t: TestApp, network: string, result: string): Promise<number> {
  const metric = await t.app.metrics.followChecks.get();
  return metric.values.find((v) => v.labels.network === network && v.labels.result === result)?.value ?? 0;
}

export async function expectNothingPaid(t: TestApp, p: Player): Promise<void> {
  expect(await socialRows(t, p)).toHaveLength(0);
  expect(await expectBalanceMatchesLedger(t, p.id)).toBe(0);
}
