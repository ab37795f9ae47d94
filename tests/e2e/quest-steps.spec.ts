// The follow quests' steps on a phone (decisions §14) against a server whose follows are verified:
// a Bot API stand-in (the channels' members) and a Discord stand-in (OAuth2 and the guild member
// call), both started in this worker. Each step says what to do in English and Russian at
// 390×844, nothing sticks out of the card or the screen, "Check" for a player who has not joined
// shows the join step (not an error) and pays once the player is in; Discord is connected through
// its consent page (played here by a redirect) and the callback route, with the reauth prompt.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { taskMessage } from '@shared/task-messages';
import { type DiscordStandIn, startDiscordStandIn } from '../helpers/discord-stand-in';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { expect, type RunningServer, test as base } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';

/** The balance once the page shows what the server holds (the account quests met at sign-up are
 * paid when the page opens, and the header's figure follows a moment later). */
async function settledCoins(page: Page, baseURL: string, access: string): Promise<number> {
  const me = await fetch(`${baseURL}/api/v1/auth/me`, { headers: { authorization: `Bearer ${access}` } });
  const { balance } = (await me.json()) as { balance: number };
  await expect(coins(page)).toHaveText(String(balance));
  return balance;
}

const test = base.extend<object, { standIns: { tg: TelegramStandIn; dc: DiscordStandIn } }>({
  standIns: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const tg = await startTelegramStandIn({ channels: { ru: '@pxt_ru', en: '@pxt_en' } });
      const dc = await startDiscordStandIn();
      await use({ tg, dc });
      await tg.close();
      await dc.close();
    },
    { scope: 'worker' },
  ],
  serverEnv: async ({ standIns }, use) => use({ ...standIns.tg.env, ...standIns.dc.env }),
});

let telegramIds = 810_000_000;

/** Links a Telegram account to the player (`id`: one another player had, who removed it). */
function linkTelegram(server: RunningServer, username: string, id = ++telegramIds): number {
  const db = new Database(join(server.dataDir, 'pxt.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    db.prepare('UPDATE users SET telegram_id = NULL WHERE telegram_id = ?').run(String(id));
    const r = db
      .prepare('UPDATE users SET telegram_id = ?, telegram_name = ?, telegram_added_at = ? WHERE username = ?')
      .run(String(id), 'Player', Date.now(), username);
    if (r.changes !== 1) throw new Error(`no player ${username}`);
  } finally {
    db.close();
  }
  return id;
}

const quest = (page: Page, key: string) => page.locator(`[data-quest="${key}"]`);
const step = (card: Locator, n: number) => card.locator(`.follow-step[data-step="${n}"]`);
const coins = (page: Page) => page.getByTestId('coin-balance');

/** Nothing wider than the screen, and every step's text and action inside its card. */
async function nothingCut(page: Page): Promise<void> {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}px wide`);
    for (const card of Array.from(document.querySelectorAll('[data-quest]'))) {
      const box = card.getBoundingClientRect();
      for (const el of Array.from(card.querySelectorAll('.follow-step, .follow-step *'))) {
        const r = el.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
          out.push(`${(el.textContent ?? '').trim().slice(0, 30)} outside its card`);
        if (
          el instanceof HTMLElement &&
          el.scrollWidth > el.clientWidth + 1 &&
          getComputedStyle(el).overflow !== 'visible'
        )
          out.push(`${(el.textContent ?? '').trim().slice(0, 30)} clipped`);
      }
    }
    return out;
  });
  expect(problems).toEqual([]);
}

test.beforeEach(async ({ context, page }) => {
  // The channels are outside the test machine's reach: answer their tabs locally.
  await context.route(/^https:\/\/(t\.me|discord\.gg)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>channel</title>' }),
  );
  await page.setViewportSize({ width: 390, height: 844 });
});

for (const lang of ['en', 'ru'] as const) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, `tasks:${key}`, values);

  test.describe(lang, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    });

    test(`the Telegram follow: connect, join, check; a player not in the channel is shown the join step, then paid (${lang})`, async ({
      page,
      server,
      standIns,
    }) => {
      const account = await createEmailAccount(server, `Steps${lang}Tg`);
      await signInPage(page, account);
      await page.goto('/tasks');
      const card = quest(page, 'telegram_ru');
      // Account quests met at sign-up are paid on opening the page: the balance settles first.
      await expect(quest(page, 'add_email_password').getByText(t('quest.done'), { exact: true })).toBeVisible();
      const before = await settledCoins(page, server.baseURL, account.access);

      await expect(step(card, 1)).toContainText(t('follow.telegram.connectText'));
      await expect(step(card, 1).getByRole('link', { name: t('follow.telegram.connect') })).toHaveAttribute(
        'href',
        '/profile#security',
      );
      await expect(step(card, 2)).toContainText(t('follow.telegram.joinText'));
      const join = step(card, 2).getByRole('link', { name: t('follow.telegram.join') });
      await expect(join).toHaveAttribute('target', '_blank');
      await expect(join).toHaveAttribute('href', /^https:\/\/t\.me\//);
      await expect(step(card, 3)).toContainText(t('follow.checkText'));
      await expect(step(card, 1)).toHaveAttribute('aria-current', 'step');
      // The old trusted-click button is gone from a verified follow.
      await expect(card.getByRole('link', { name: t('quest.telegram_ru.button'), exact: true })).toHaveCount(0);
      const discord = quest(page, 'discord');
      await expect(step(discord, 1)).toContainText(t('follow.discord.connectText'));
      await expect(step(discord, 1).getByRole('button', { name: t('follow.discord.connect') })).toBeVisible();
      await expect(step(discord, 2)).toContainText(t('follow.discord.joinText'));
      await nothingCut(page);

      // Checking before connecting Telegram points at step 1, as a step to do rather than an error.
      await step(card, 3)
        .getByRole('button', { name: t('follow.check') })
        .click();
      await expect(step(card, 1).getByRole('status')).toHaveText(taskMessage('telegram_not_linked')[lang]);
      await expect(card.getByRole('alert')).toHaveCount(0);

      const telegramId = linkTelegram(server, account.username);
      await page.reload();
      await expect(step(card, 1)).toContainText(t('follow.telegram.connected'));
      await expect(step(card, 1).getByRole('link')).toHaveCount(0);

      await step(card, 3)
        .getByRole('button', { name: t('follow.check') })
        .click();
      // The card's whole text first: were the answer shown at another step, the failure says which.
      await expect(card).toContainText(taskMessage('not_a_member')[lang]);
      await expect(step(card, 2).getByRole('status')).toHaveText(taskMessage('not_a_member')[lang]);
      await expect(step(card, 2)).toHaveAttribute('aria-current', 'step');
      await expect(card.getByRole('alert')).toHaveCount(0);
      await expect(coins(page)).toHaveText(String(before));
      await nothingCut(page);

      standIns.tg.setMember('@pxt_ru', telegramId, 'member');
      await step(card, 3)
        .getByRole('button', { name: t('follow.checkAgain') })
        .click();
      await expect(card.getByText(t('quest.done'), { exact: true })).toBeVisible();
      await expect(coins(page)).toHaveText(String(before + 15));
      await expect(card.locator('.follow-steps')).toHaveCount(0);
      await nothingCut(page);
    });

    test(`a Telegram account already paid on another account: Check says so at its step and pays nothing (${lang})`, async ({
      page,
      server,
      standIns,
    }) => {
      const first = await createEmailAccount(server, `Paid${lang}Tg`);
      const telegramId = linkTelegram(server, first.username);
      standIns.tg.setMember('@pxt_ru', telegramId, 'member');
      const paid = await fetch(`${server.baseURL}/api/v1/tasks/social-media-reward/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.access}`, 'content-type': 'application/json' },
        body: JSON.stringify({ network: 'telegram_ru' }),
      });
      expect(paid.status).toBe(200);
      // The first player removes Telegram; a second links the same account.
      const account = await createEmailAccount(server, `Again${lang}Tg`);
      linkTelegram(server, account.username, telegramId);
      await signInPage(page, account);
      await page.goto('/tasks');
      const card = quest(page, 'telegram_ru');
      await expect(quest(page, 'add_email_password').getByText(t('quest.done'), { exact: true })).toBeVisible();
      const before = await settledCoins(page, server.baseURL, account.access);
      await expect(step(card, 1)).toContainText(t('follow.telegram.connected'));

      await step(card, 3)
        .getByRole('button', { name: t('follow.check') })
        .click();
      await expect(card).toContainText(taskMessage('follow_already_rewarded')[lang]);
      await expect(step(card, 3).getByRole('status')).toHaveText(taskMessage('follow_already_rewarded')[lang]);
      await expect(card.getByRole('alert')).toHaveCount(0);
      await expect(coins(page)).toHaveText(String(before));
      await nothingCut(page);
    });

    test(`the Discord follow: connected through Discord's page and the callback with the reauth prompt, then checked (${lang})`, async ({
      page,
      server,
      standIns,
    }) => {
      const { dc } = standIns;
      const account = await createEmailAccount(server, `Steps${lang}Dc`);
      const user = {
        id: String(900_000_000_000_000_000n + BigInt(++telegramIds)),
        username: `dc${lang}`,
        global_name: null,
      };
      // Discord's consent page, played by a redirect back with a code bound to the app's callback.
      await page.route('https://discord.com/oauth2/authorize**', (route) => {
        const url = new URL(route.request().url());
        expect(url.searchParams.get('scope')).toBe('identify guilds.members.read');
        const redirect = url.searchParams.get('redirect_uri')!;
        const code = dc.authorize(user, { redirectUri: redirect });
        const back = `${redirect}?${new URLSearchParams({ code, state: url.searchParams.get('state')! })}`;
        return route.fulfill({ status: 302, headers: { location: back } });
      });
      await signInPage(page, account);
      await page.goto('/tasks');
      const card = quest(page, 'discord');
      await expect(quest(page, 'add_email_password').getByText(t('quest.done'), { exact: true })).toBeVisible();
      const before = await settledCoins(page, server.baseURL, account.access);

      await step(card, 1)
        .getByRole('button', { name: t('follow.discord.connect') })
        .click();
      await page.waitForURL(/\/auth\/discord\/callback\?/);
      const prompt = page.getByRole('dialog', { name: text(lang, 'auth:reauth.title') });
      await expect(prompt).toBeVisible();
      await nothingCut(page);
      await prompt.getByLabel(text(lang, 'auth:fields.currentPassword')).fill(account.password);
      await prompt.getByRole('button', { name: text(lang, 'auth:reauth.confirm') }).click();

      await page.waitForURL(/\/tasks$/);
      await expect(step(card, 1)).toContainText(t('follow.discord.connected'));
      await step(card, 3)
        .getByRole('button', { name: t('follow.check') })
        .click();
      await expect(step(card, 2).getByRole('status')).toHaveText(taskMessage('not_a_member')[lang]);
      await expect(coins(page)).toHaveText(String(before));
      await nothingCut(page);

      dc.setMember(user.id, true);
      await step(card, 3)
        .getByRole('button', { name: t('follow.checkAgain') })
        .click();
      await expect(card.getByText(t('quest.done'), { exact: true })).toBeVisible();
      await expect(coins(page)).toHaveText(String(before + 15));
    });
  });
}
