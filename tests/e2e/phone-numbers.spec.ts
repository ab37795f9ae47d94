// Numbers on a phone (issue 16): PXT is written one way everywhere — six decimals in the player's
// language, truncated so the screen never promises more than is paid — and fits on one line.
import { expect, test } from './fixtures';
import { admin, createEmailAccount, signInPage } from './helpers';

// A 60-second session at 1 PXT/h pays 1/60 PXT = 0.0166666…: the server pays 0.016666.
test.use({ serverEnv: { MINING_SESSION_SECONDS: '60' } });

const PXT = {
  en: { balance: '0.149289', estimate: '0.016666 PXT', gems: '1,500' },
  ru: { balance: '0,149289', estimate: '0,016666 PXT', gems: /^1\s500$/ },
};

for (const lang of ['en', 'ru'] as const) {
  test(`PXT shows six truncated decimals and the phone profile does not wrap it (${lang})`, async ({
    page,
    server,
  }) => {
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    const account = await createEmailAccount(server, `Numbers${lang}`);
    admin(server, 'grant', account.email, 'pxt', '0.149289');
    admin(server, 'grant', account.email, 'gems', '1500');
    await signInPage(page, account);

    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/profile');
      const pxt = page.getByTestId('profile-pxt');
      await expect(pxt).toHaveText(PXT[lang].balance);
      await expect(page.getByTestId('profile-gems')).toHaveText(PXT[lang].gems);
      const lines = await pxt.evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      );
      expect(lines, `PXT lines at ${width} px`).toBe(1);
    }

    await page.goto('/miner');
    await expect(page.getByTestId('balance-pxt')).toHaveText(PXT[lang].balance);
    // The idle estimate of the next session: 1/60 PXT, cut, not rounded up to 0.016667.
    await expect(page.locator('.mining-figures dd').first()).toHaveText(PXT[lang].estimate);
  });
}
