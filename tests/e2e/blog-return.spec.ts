// Issue 16: the public blog is no dead end. A visitor's READ opens the login and, once signed in,
// the article they chose opens; each article shows a cover of its own (phone size, both languages).
// Issue 24: the READ leaves the address on /blog, so closing the dialog leaves the visitor there.
import { expect, test } from './fixtures';
import { createEmailAccount } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';

test.use({ viewport: PHONE });

for (const lang of LANGUAGES) {
  test(`${lang}: READ as a visitor, sign in, and the article opens; every card has its own cover`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Reader${lang}${Date.now().toString(36).slice(-5)}`);
    await useLanguage(page, lang);
    await page.goto('/blog');
    const cards = page.locator('.blog-card');
    await expect(cards.first()).toBeVisible();
    const count = await cards.count();
    expect(count).toBeGreaterThan(1);

    // Each card: an image of its own from this server, loaded.
    const covers = cards.locator('img.blog-card__cover');
    await expect(covers).toHaveCount(count);
    for (let i = 0; i < count; i++) {
      await covers.nth(i).scrollIntoViewIfNeeded();
      await expect
        .poll(() => covers.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
    }
    const sources = await covers.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src));
    expect(new Set(sources).size).toBe(count);
    expect(sources.every((s) => s.startsWith(server.baseURL))).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, testInfo, `blog-covers-${lang}-390`);

    const second = cards.nth(1);
    const title = (await second.locator('.blog-card__title').innerText()).trim();
    const href = await second.locator('a.blog-card__link').getAttribute('href');
    await second.locator('a.blog-card__link').click();

    // The visitor is asked to sign in …
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text(lang, 'auth:main.email') })
      .click();
    const login = page.getByRole('dialog', { name: text(lang, 'auth:login.title') });
    await login.getByLabel(text(lang, 'auth:fields.email')).fill(player.email);
    await login.getByLabel(text(lang, 'auth:fields.password'), { exact: true }).fill(player.password);
    await login.getByRole('button', { name: text(lang, 'auth:login.submit'), exact: true }).click();

    await expect(login).toBeHidden();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `blog-return-after-login-${lang}-390`);
    // … and lands on the article they chose.
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  });
}

for (const lang of LANGUAGES) {
  test(`${lang}: READ as a visitor, close the dialog: still on the blog`, async ({ page, baseURL }, testInfo) => {
    await useLanguage(page, lang);
    await page.goto('/blog');
    const cards = page.locator('.blog-card');
    await expect(cards.first()).toBeVisible();
    const count = await cards.count();
    await cards.first().locator('a.blog-card__link').click();

    const dialog = page.getByRole('dialog', { name: text(lang, 'auth:main.title') });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/blog`);
    await dialog.getByRole('button', { name: text(lang, 'common:modal.close') }).click();
    await expect(dialog).toBeHidden();

    await expect(page).toHaveURL(`${baseURL}/blog`);
    await expect(page.getByRole('heading', { level: 1, name: text(lang, 'blog:list.title') })).toBeVisible();
    await expect(cards).toHaveCount(count);
    await shot(page, testInfo, `blog-read-closed-${lang}-390`);
    // Signed out and back on the list, nothing is left to send them to the article later.
    expect(await page.evaluate(() => sessionStorage.getItem('pxt.returnTo'))).toBeNull();
  });
}
