// Updates in every tab (issue 15): the first install of the worker says once that the app works
// offline; accepting a new version in one tab reloads every open tab, while a tab holding a
// half-filled form keeps it and shows its own prompt instead of reloading.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, STATIC_DIR, test } from './fixtures';
import { deployNewWorker } from './helpers';

test.describe.configure({ timeout: 120_000 });

type Marked = Window & { pxtMark?: string };
const mark = (page: Page, value: string) => page.evaluate((v) => ((window as Marked).pxtMark = v), value);
const markOf = (page: Page) => page.evaluate(() => (window as Marked).pxtMark ?? null);
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

test('the first install of the worker says once that the app is ready to work offline, on the next page, shifting nothing', async ({
  page,
}) => {
  // Every layout shift of the visit that no input caused (what CLS adds up).
  await page.addInitScript(() => {
    const w = window as Window & { pxtShift?: number };
    w.pxtShift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEntry[] & { value: number; hadRecentInput: boolean }[])
        if (!e.hadRecentInput) w.pxtShift! += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/');
  const notice = page.getByRole('status').filter({ hasText: 'Ready to work offline' });
  // Installed and the notice due (sw-registration.ts marks it shown): it waits for the next page.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('pxt.offlineReadyShown')), { timeout: 20_000 })
    .toBe('1');
  await expect.poll(() => controlled(page)).toBe(true);
  await expect(notice).toBeHidden();
  expect(await page.evaluate(() => (window as Window & { pxtShift?: number }).pxtShift)).toBeLessThan(0.05);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(notice).toBeVisible();
  await expect.poll(() => controlled(page)).toBe(true);
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
  // Later visits (the worker is there already) say nothing.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state)))
    .toBe('activated');
  await expect(page.getByText('Ready to work offline')).toBeHidden();
});

test('an accepted update reloads every open tab, except one with a half-filled form, which keeps it and asks', async ({
  context,
  page,
  server,
}) => {
  // A copy of the build, so the test can change the worker's bytes like a deploy would.
  const copy = mkdtempSync(join(tmpdir(), 'pxt-deploy-'));
  try {
    cpSync(STATIC_DIR, copy, { recursive: true });
    await server.restart({ STATIC_DIR: copy });
    await page.goto('/');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await expect.poll(() => controlled(page)).toBe(true);
    // Three tabs of one browser: A takes the update, B is idle, C has a half-typed e-mail.
    const b = await context.newPage();
    const c = await context.newPage();
    for (const p of [b, c]) {
      await p.goto('/');
      await expect.poll(() => controlled(p)).toBe(true);
      await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
    }
    await expect(b.getByText('Ready to work offline')).toBeHidden();
    await mark(page, 'a');
    await mark(b, 'b');
    await mark(c, 'c');
    await c.getByRole('button', { name: 'Connect' }).click();
    await c.getByRole('dialog').getByRole('button', { name: 'Continue with e-mail' }).click();
    const login = c.getByRole('dialog', { name: 'Log in' });
    await login.getByLabel('E-mail').fill('half-typed@example.com');

    deployNewWorker(copy);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    // The new worker installs and waits; then A's page starts its app for the prompt (a visitor's
    // page runs none until then: lib/start-gate.ts), which loads its PWA layer at idle. On a busy
    // two-core machine with both workers' browsers running, that chain took longer than 10 s.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r?.waiting)), {
        timeout: 30_000,
      })
      .toBe(true);
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);

    // A and B reloaded under the new worker (their marks are gone).
    await expect.poll(() => markOf(page)).toBeNull();
    await expect.poll(() => markOf(b)).toBeNull();
    await expect(b.getByRole('heading', { level: 1 })).toBeVisible();
    // C kept its page and its form, and says the update is in.
    const applied = c.getByRole('status').filter({ hasText: 'PXT Companion was updated' });
    await expect(applied).toBeVisible();
    expect(await markOf(c)).toBe('c');
    await expect(login.getByLabel('E-mail')).toHaveValue('half-typed@example.com');
    // Nothing of this is the first install: no offline notice anywhere.
    for (const p of [page, b, c]) await expect(p.getByText('Ready to work offline')).toBeHidden();

    // The player closes the form (the dialog sits above the dock) and reloads C.
    await c.keyboard.press('Escape');
    await expect(login).toBeHidden();
    await Promise.all([c.waitForEvent('load'), applied.getByRole('button', { name: 'Reload' }).click()]);
    await expect.poll(() => markOf(c)).toBeNull();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.waiting === null)))
      .toBe(true);
  } finally {
    await server.restart();
    rmSync(copy, { recursive: true, force: true });
  }
});
