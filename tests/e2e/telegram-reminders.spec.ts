// The bot's reminder switch in /profile (decisions §14) at 390×844, in English and Russian, with a
// server whose bot talks to the Bot API stand-in: hidden without Telegram linked; with it linked,
// on by default, a link to start the bot while it is not started, switched off and kept off, and
// the link gone once the bot is started.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { expect, test, type RunningServer } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';

let tg: TelegramStandIn | null = null;
test.use({
  viewport: { width: 390, height: 844 },
  serviceWorkers: 'block',
  // eslint-disable-next-line no-empty-pattern
  serverEnv: async ({}, use) => {
    tg ??= await startTelegramStandIn();
    await use(tg.env);
  },
});
test.afterAll(async () => {
  await tg?.close();
  tg = null;
});

let telegramId = 600_000_000 + Math.floor(Math.random() * 100_000_000);

function linkTelegram(server: RunningServer, username: string): number {
  const id = ++telegramId;
  const db = new Database(join(server.dataDir, 'pxt.sqlite'));
  try {
    db.prepare(
      'UPDATE users SET telegram_id = ?, telegram_name = ?, telegram_added_at = ? WHERE lower(username) = lower(?)',
    ).run(String(id), 'Ann', Date.now(), username);
  } finally {
    db.close();
  }
  return id;
}

async function startBot(server: RunningServer, id: number) {
  const r = await fetch(`${server.baseURL}/api/v1/telegram/webhook/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': tg!.webhookSecret },
    body: JSON.stringify({
      update_id: id,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id, type: 'private' },
        from: { id, is_bot: false, first_name: 'Ann' },
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    }),
  });
  expect(r.status).toBe(200);
  await expect.poll(() => tg!.callsOf('sendMessage').some((c) => Number(c.body.chat_id) === id)).toBe(true);
}

for (const lang of ['en', 'ru'] as const) {
  const t = (key: string) => text(lang, key);

  test(`the reminder switch in /profile (${lang})`, async ({ page, server }) => {
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    const withoutTelegram = await createEmailAccount(server, `tgoff_${lang}_${Date.now() % 100000}`);
    await signInPage(page, withoutTelegram);
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/telegram/reminders/'));
    await page.goto('/profile');
    expect((await (await answered).json()).linked).toBe(false);
    await expect(page.getByRole('heading', { name: t('profile:security.title') })).toBeVisible();
    await expect(page.getByTestId('telegram-reminders')).toHaveCount(0);

    const player = await createEmailAccount(server, `tgon_${lang}_${Date.now() % 100000}`);
    const id = linkTelegram(server, player.username);
    const other = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 390, height: 844 } });
    const p = await other.newPage();
    await p.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await signInPage(p, player);
    await p.goto('/profile');
    const card = p.getByTestId('telegram-reminders');
    await expect(card.getByRole('heading', { name: t('profile:telegram.title') })).toBeVisible();
    const toggle = card.getByRole('switch', { name: t('profile:telegram.switch') });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    const start = card.getByRole('link', { name: t('profile:telegram.startBot') });
    await expect(start).toHaveAttribute('href', `https://t.me/${tg!.botUsername}?start=hi`);

    // Fits the phone, with tap targets of a main action.
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect((await start.boundingBox())!.height).toBeGreaterThanOrEqual(24);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');

    // Started: the link goes; the switch stays as the player left it.
    await startBot(server, id);
    await p.reload();
    await expect(card.getByRole('switch', { name: t('profile:telegram.switch') })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await expect(card.getByRole('link', { name: t('profile:telegram.startBot') })).toHaveCount(0);
    await other.close();
  });
}
