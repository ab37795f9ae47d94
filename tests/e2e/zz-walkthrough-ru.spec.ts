// A walkthrough at 390 px in Russian (issue 24): landing → sign-up from "Start mining" → mailed link →
// username → miner → start → claim → referrals → a friend's link. Screenshots to WALK_DIR. Not part
// of the suite: run with WALK_DIR set.
import { expect, test, linkFromMail } from './fixtures';
import { uniqueEmail } from './helpers';
import { text } from './locale-text';

const DIR = process.env.WALK_DIR ?? '';
test.skip(!DIR, 'manual walkthrough');
test.use({ viewport: { width: 390, height: 844 }, serverEnv: { MINING_SESSION_SECONDS: '6' } });
test.setTimeout(180_000);

test('walkthrough in Russian at 390 px', async ({ page, outbox, baseURL, browser }) => {
  let n = 0;
  const shot = async (name: string, fullPage = false) =>
    page.screenshot({ path: `${DIR}/${String(++n).padStart(2, '0')}-${name}.png`, fullPage });
  const ru = (k: string, v: Record<string, string | number> = {}) => text('ru', k, v);
  // As a Russian player's phone: the language chosen before (the menu's Eng/Rus).
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await shot('landing', true);
  await page.getByTestId('landing-cta').click();
  await shot('sign-in-dialog');
  await page.getByRole('dialog').getByRole('button', { name: ru('auth:main.email') }).click();
  await page.getByRole('dialog').getByRole('button', { name: ru('auth:login.register') }).click();
  const email = uniqueEmail('walk');
  const register = page.getByRole('dialog', { name: ru('auth:register.title') });
  await register.getByLabel(ru('auth:fields.email')).fill(email);
  await register.getByLabel(ru('auth:fields.password'), { exact: true }).fill('punk1234');
  await register.getByLabel(ru('auth:fields.repeatPassword')).fill('punk1234');
  await register.getByLabel(ru('auth:register.agree')).check();
  await shot('register');
  await register.getByRole('button', { name: ru('auth:register.submit') }).click();
  await expect.poll(() => outbox().length).toBeGreaterThan(0);
  await shot('check-inbox');
  const mail = outbox().at(-1)!;
  await test.info().attach('mail', { body: mail });
  await page.goto(linkFromMail(mail, baseURL!));
  const details = page.getByRole('dialog', { name: ru('auth:accountDetails.title') });
  await expect(details).toBeVisible();
  await shot('username');
  await details.getByLabel(ru('auth:fields.username')).fill('Шахтёр_1');
  await details.getByRole('button', { name: ru('auth:accountDetails.submit') }).click();
  await expect(details).toBeHidden();
  await page.waitForTimeout(1500);
  await shot('after-username');
  if (!page.url().endsWith('/miner')) await page.goto('/miner');
  await shot('miner', true);
  await page.getByRole('button', { name: ru('mining:miner.start') }).click();
  await page.waitForTimeout(1000);
  await shot('mining');
  await page.getByRole('button', { name: ru('mining:miner.claim'), exact: true }).click({ timeout: 30_000 });
  await page.waitForTimeout(800);
  await shot('claimed');
  await page.goto('/referrals');
  await page.waitForTimeout(1500);
  await shot('referrals', true);
  await page.goto('/tasks');
  await page.waitForTimeout(1500);
  await shot('tasks', true);
  await page.goto('/profile');
  await page.waitForTimeout(1500);
  await shot('profile', true);
  const link = await page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('pxt.accessToken') ?? '""') as string;
    const r = await fetch('/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } });
    return ((await r.json()) as { referral_link?: string }).referral_link ?? '';
  });
  const friend = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: 'ru-RU' });
  await friend.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
  await friend.goto(link || '/?refCode=x');
  await friend.waitForTimeout(1500);
  await friend.screenshot({ path: `${DIR}/${String(++n).padStart(2, '0')}-friend-landing.png`, fullPage: true });
});
