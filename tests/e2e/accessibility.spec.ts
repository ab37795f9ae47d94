// Accessibility pass (issue 15): axe-core over every page and every dialog a test can reach, as a
// visitor and as a signed-in player, in English and in Russian. A serious or critical violation
// fails the test; the report lists each with the page or dialog it was found on. One browser
// context per language and state; the pages are visited in turn.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

test.describe.configure({ timeout: 180_000 });

type Lang = 'en' | 'ru';
const LOCALES = resolve(import.meta.dirname, '../../public/locales');

/** The interface text of `ns:a.b` in `lang`, so the same steps click the same buttons in both languages. */
function tr(lang: Lang, key: string): string {
  const [ns, path] = key.split(':');
  const data = JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;
  const value = path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], data);
  if (typeof value !== 'string') throw new Error(`no text ${key} in ${lang}`);
  return value;
}

interface Finding {
  where: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Let entry animations finish (not the endless ones) so colours are measured as the player sees them.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
}

/** Every scan and its lesser (minor, moderate) findings, for the test's annotation. */
const scanned: { where: string; minor: string[] }[] = [];

async function scan(page: Page, where: string, findings: Finding[]): Promise<void> {
  await settle(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  scanned.push({ where, minor: result.violations.filter((v) => v.impact === 'minor' || v.impact === 'moderate').map((v) => v.id) });
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    findings.push({ where, id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) });
  }
}

/** Opens a dialog with `open`, scans it, closes it with Escape (or a reload when it cannot be closed). */
async function scanDialog(page: Page, where: string, findings: Finding[], open: () => Promise<void>): Promise<void> {
  await open();
  const dialog = page.getByRole('dialog');
  await expect(dialog.first()).toBeVisible();
  await scan(page, where, findings);
  await page.keyboard.press('Escape');
  if (await dialog.count()) await page.reload();
}

const click = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).first().click({ timeout: 15_000 });

test.afterEach(() => {
  const lesser = [...new Set(scanned.flatMap((s) => s.minor))];
  test.info().annotations.push({ type: 'axe', description: `${scanned.length} scans; minor/moderate rules seen: ${lesser.join(', ') || 'none'}` });
  scanned.length = 0;
});

function report(findings: Finding[]): string {
  return findings.map((f) => `${f.where}: [${f.impact}] ${f.id} — ${f.help}\n    ${f.targets.join('\n    ')}`).join('\n');
}

for (const lang of ['en', 'ru'] as const) {
  test(`${lang}: visitor pages and sign-in dialogs have no serious or critical axe violation`, async ({ page }) => {
    const findings: Finding[] = [];
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    for (const path of ['/', '/blog', '/profile', '/no-such-page']) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await scan(page, path, findings);
    }
    await page.goto('/');
    const connect = () => click(page, tr(lang, 'common:header.connect'));
    await scanDialog(page, 'dialog main', findings, connect);
    await scanDialog(page, 'dialog login', findings, async () => {
      await connect();
      await click(page, tr(lang, 'auth:main.email'));
    });
    await scanDialog(page, 'dialog register', findings, async () => {
      await connect();
      await click(page, tr(lang, 'auth:main.email'));
      await click(page, tr(lang, 'auth:login.register'));
    });
    await scanDialog(page, 'dialog forgot password', findings, async () => {
      await connect();
      await click(page, tr(lang, 'auth:main.email'));
      await page.getByRole('dialog').getByRole('button', { name: tr(lang, 'auth:login.forgot') }).or(page.getByRole('dialog').getByRole('link', { name: tr(lang, 'auth:login.forgot') })).first().click();
    });
    await scanDialog(page, 'dialog new password (mailed link)', findings, () => page.goto('/?modal=restorePassword&token=abc').then(() => undefined));
    expect(findings, report(findings)).toEqual([]);
  });

  test(`${lang}: signed-in pages and dialogs have no serious or critical axe violation`, async ({ page, server }) => {
    const findings: Finding[] = [];
    const account = await createEmailAccount(server, `axe${lang}`);
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await signInPage(page, account);
    for (const path of ['/', '/blog', '/profile', '/tasks', '/referrals', '/arcade', '/miner', '/mining', '/boost']) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await scan(page, path, findings);
    }
    // An article (signed-in only): the first one the blog lists.
    await page.goto('/blog');
    const article = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('link').first();
    if (await article.count()) {
      await article.click();
      await expect(page).toHaveURL(/\/article\//);
      await scan(page, '/article/…', findings);
    }

    await page.goto('/profile');
    await scanDialog(page, 'dialog change username', findings, () => click(page, tr(lang, 'profile:actions.username')));
    await page.goto('/miner');
    await scanDialog(page, 'dialog mining guide', findings, () => click(page, tr(lang, 'mining:miner.guide')));
    await scanDialog(page, 'dialog top up', findings, () => click(page, tr(lang, 'mining:wallet.topUp')));
    await scanDialog(page, 'dialog auto miner', findings, () => click(page, tr(lang, 'mining:auto.subscribe')));
    await scanDialog(page, 'dialog boosts', findings, () => click(page, tr(lang, 'mining:rate.useBoost')));
    // The beta application dialog opens only for a player who qualifies (its button is disabled for a
    // new player), and the wallet dialogs need a wallet: not reached here.
    expect(findings, report(findings)).toEqual([]);
  });
}
