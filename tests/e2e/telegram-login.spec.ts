// Telegram's Login Widget on the web (decisions §14), without telegram.org: the widget's script is
// never fetched here (requests to telegram.org are aborted and counted), and the callback Telegram
// would redirect to is opened with fields signed as Telegram signs them. Signed out, the callback
// signs in (a new player chooses a username next) and lands on /miner; signed in, it links
// Telegram after the reauth prompt and lands on the profile. Without a bot configured, no page
// offers Telegram or asks telegram.org for anything.
import type { Page } from '@playwright/test';
import { signLoginWidget, testBotToken } from '../helpers/telegram-signing';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';

const BOT_TOKEN = testBotToken();
const BOT_USERNAME = 'pxt_e2e_bot';
const TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: BOT_TOKEN,
  TELEGRAM_BOT_USERNAME: BOT_USERNAME,
  TELEGRAM_WEBHOOK_SECRET: 'e2e-webhook-secret-0123456789',
  // Nothing listens there: signing in with Telegram never calls the Bot API.
  TELEGRAM_API_BASE: 'http://127.0.0.1:9',
};

let nextId = 8_100_000_000 + Math.floor(Math.random() * 1_000_000);
const telegramUser = () => {
  const id = ++nextId;
  return { id, first_name: 'Neon', last_name: 'Punk', username: `neon_${id}` };
};
const callbackUrl = (fields: Record<string, string>) => `/auth/telegram/callback?${new URLSearchParams(fields)}`;

/** Counts (and aborts) every request to telegram.org: the tests never load Telegram's script. */
async function blockTelegram(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(
    (url) => url.hostname === 'telegram.org' || url.hostname.endsWith('.telegram.org'),
    (route) => {
      asked.push(route.request().url());
      return route.abort();
    },
  );
  return asked;
}

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });

test.describe('with a Telegram bot configured', () => {
  test.use({ serverEnv: TELEGRAM_ENV });

  test('the sign-in dialog offers Telegram with the bot and the callback address', async ({ page, baseURL }) => {
    const asked = await blockTelegram(page);
    await page.goto('/');
    expect(asked).toEqual([]); // not on the first visit
    await page.getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: text('en', 'auth:main.title') });
    const widget = dialog.getByTestId('telegram-login');
    await expect(widget).toBeVisible();
    // Telegram's iframe would fill the slot; here its script is refused, so the slot stays empty.
    await expect(widget.getByRole('group', { name: text('en', 'auth:telegram.button') })).toBeAttached();
    const script = widget.locator('script');
    await expect(script).toHaveAttribute('src', 'https://telegram.org/js/telegram-widget.js?22');
    await expect(script).toHaveAttribute('data-telegram-login', BOT_USERNAME);
    await expect(script).toHaveAttribute('data-auth-url', `${baseURL}/auth/telegram/callback`);
    await expect(script).toHaveAttribute('data-request-access', 'write');
    // The script was asked for (and refused here): the player is told Telegram could not be reached.
    await expect(widget.getByRole('alert')).toHaveText(text('en', 'auth:telegram.widgetFailed'));
    expect(asked).toEqual(['https://telegram.org/js/telegram-widget.js?22']);
  });

  test('the callback signs a new player in: the username dialog first, then the miner', async ({ page }) => {
    await blockTelegram(page);
    const user = telegramUser();
    await page.goto(callbackUrl(signLoginWidget(BOT_TOKEN, { user })));
    const details = page.getByRole('dialog', { name: text('en', 'auth:accountDetails.title') });
    await expect(details).toBeVisible();
    await expect(page).toHaveURL(/\/miner$/);
    const username = `Tg${String(user.id).slice(-8)}`;
    await details.getByRole('textbox').fill(username);
    await details.getByRole('button', { name: text('en', 'auth:accountDetails.submit') }).click();
    await expect(details).toBeHidden();
    await expect(page.getByTestId('player-block')).toContainText(username);
    // The username was chosen over the miner already on screen: its guide opens now, not on a
    // later visit (which once made the next sign-in below open it instead).
    const guide = page.getByRole('dialog', { name: text('en', 'mining:guide.title') });
    await expect(guide).toBeVisible();
    await guide.getByRole('button', { name: text('en', 'common:modal.close') }).click();
    await expect(guide).toBeHidden();

    // The same Telegram account again, in a fresh browser state: the same player, no dialog.
    await page.evaluate(() => localStorage.clear());
    await page.goto(callbackUrl(signLoginWidget(BOT_TOKEN, { user })));
    await expect(page).toHaveURL(/\/miner$/);
    await expect(page.getByTestId('player-block')).toContainText(username);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  for (const lang of ['en', 'ru'] as const) {
    test(`a forged or replayed callback is refused with the reason in ${lang}, nobody signed in`, async ({ page }) => {
      await blockTelegram(page);
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
      const forged = signLoginWidget(testBotToken(), { user: telegramUser() });
      await page.goto(callbackUrl(forged));
      const page_ = page.getByTestId('telegram-callback');
      await expect(page_.getByRole('alert')).toHaveText(text(lang, 'auth:telegram.errors.telegram_data_invalid'));
      // The signed fields leave the address bar as soon as they are read.
      await expect(page).toHaveURL(/\/auth\/telegram\/callback$/);
      expect(await page.evaluate(() => localStorage.getItem('pxt.accessToken'))).toBeNull();

      const once = signLoginWidget(BOT_TOKEN, { user: telegramUser() });
      await page.goto(callbackUrl(once));
      await expect(page).toHaveURL(/\/miner$/);
      await page.evaluate(() => localStorage.clear());
      await page.goto(callbackUrl(once));
      await expect(page_.getByRole('alert')).toHaveText(text(lang, 'auth:telegram.errors.telegram_data_used'));
      await page_.getByRole('button', { name: text(lang, 'auth:telegram.backToStart') }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }

  test('a signed-in player links Telegram from the profile after the reauth prompt, and it is listed there', async ({
    page,
    server,
  }) => {
    await blockTelegram(page);
    const account = await createEmailAccount(server, 'TgLinker');
    await signInPage(page, account);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: text('en', 'profile:security.title') });
    const link = section.getByTestId('link-telegram');
    await expect(link).toContainText(text('en', 'profile:security.addTelegram'));
    await expect(link.getByTestId('telegram-login').locator('script')).toHaveAttribute(
      'data-telegram-login',
      BOT_USERNAME,
    );

    // Telegram sends the browser back to the callback; the server wants proof first.
    const user = telegramUser();
    await page.goto(callbackUrl(signLoginWidget(BOT_TOKEN, { user })));
    const prompt = page.getByRole('dialog', { name: text('en', 'auth:reauth.title') });
    await expect(prompt).toBeVisible();
    await prompt.getByLabel(text('en', 'auth:fields.currentPassword')).fill(account.password);
    await prompt.getByRole('button', { name: text('en', 'auth:reauth.confirm') }).click();
    await expect(page).toHaveURL(/\/profile#security$/);
    const methods = page.getByTestId('security-methods');
    await expect(methods.locator('[data-kind="telegram"]')).toContainText(`@${user.username}`);
    await expect(section.getByTestId('link-telegram')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('without a Telegram bot', () => {
  // Empty rather than absent: the fixture keeps a file's server unless the settings differ.
  test.use({ serverEnv: Object.fromEntries(Object.keys(TELEGRAM_ENV).map((name) => [name, ''])) });

  test('no page offers Telegram or asks telegram.org for anything', async ({ page, server }) => {
    const asked = await blockTelegram(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: text('en', 'auth:main.title') });
    await expect(dialog.getByRole('button', { name: text('en', 'auth:main.email') })).toBeVisible();
    await expect(dialog.getByTestId('telegram-login')).toHaveCount(0);

    const account = await createEmailAccount(server, 'NoTgPlayer');
    await page.evaluate(() => localStorage.clear());
    await signInPage(page, account);
    await page.goto('/profile');
    await expect(page.getByTestId('security-methods')).toBeVisible();
    await expect(page.getByTestId('link-telegram')).toHaveCount(0);
    await expect(page.getByTestId('telegram-login')).toHaveCount(0);
    expect(asked).toEqual([]);
  });
});
