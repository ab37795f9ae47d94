// The app is installable in Chromium: a manifest with the fields and icons an install needs, a
// service worker that controls the page and answers its fetches, revalidated shell files, and —
// through the DevTools protocol — no installability errors from the browser itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(body.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

test('the manifest has what an install needs, and every icon exists with its declared size', async ({ request }) => {
  const page = await request.get('/');
  const html = await page.text();
  expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);

  const res = await request.get('/manifest.webmanifest');
  expect(res.ok()).toBe(true);
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = JSON.parse(await res.text());
  expect(manifest).toMatchObject({
    name: 'PXT Companion',
    short_name: 'PXT',
    // Issue 24: the home-screen launch is marked, so the landing sends a signed-in player on to /miner.
    start_url: '/?source=pwa',
    id: '/',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.description).toBeTruthy();
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.shortcuts.map((s: { url: string }) => s.url)).toEqual(['/miner', '/tasks']);

  const icons: { src: string; sizes: string; type: string; purpose?: string }[] = manifest.icons;
  const has = (size: string, purpose: string) =>
    icons.some((i) => i.sizes === size && (i.purpose ?? 'any').split(' ').includes(purpose));
  expect(has('192x192', 'any')).toBe(true);
  expect(has('512x512', 'any')).toBe(true);
  expect(has('512x512', 'maskable')).toBe(true);
  for (const icon of [...icons, ...manifest.shortcuts.flatMap((s: { icons: typeof icons }) => s.icons)]) {
    const r = await request.get(icon.src);
    expect(r.ok(), icon.src).toBe(true);
    expect(r.headers()['content-type']).toBe('image/png');
    const { width, height } = pngSize(await r.body());
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
  }
});

test('install sheet: English and Russian manifests with their own texts, narrow and wide screenshots, launch_handler and localized shortcuts', async ({
  request,
}) => {
  const read = async (path: string) => {
    const r = await request.get(path);
    expect(r.ok(), path).toBe(true);
    expect(r.headers()['cache-control'], path).toBe('no-cache');
    return JSON.parse(await r.text());
  };
  const en = await read('/manifest.webmanifest');
  const ru = await read('/manifest.ru.webmanifest');
  // One app, two languages: the same id, start and scope, so installing either is the same app.
  for (const key of ['id', 'start_url', 'scope', 'display', 'icons']) expect(ru[key], key).toEqual(en[key]);
  expect(en.lang).toBe('en');
  expect(ru.lang).toBe('ru');
  expect(ru.description).toMatch(/[а-яё]/i);
  expect(ru.description).not.toBe(en.description);
  expect(en.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
    ['Miner', '/miner'],
    ['Tasks', '/tasks'],
  ]);
  expect(ru.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
    ['Майнер', '/miner'],
    ['Задания', '/tasks'],
  ]);
  for (const m of [en, ru]) {
    expect(m.launch_handler.client_mode[0]).toMatch(/^(navigate-existing|focus-existing)$/);
    const shots: { src: string; sizes: string; type: string; form_factor: string; label: string }[] = m.screenshots;
    expect(shots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of shots) {
      expect(shot.label, shot.src).toBeTruthy();
      const r = await request.get(shot.src);
      expect(r.ok(), shot.src).toBe(true);
      expect(r.headers()['content-type']).toBe('image/png');
      const body = await r.body();
      expect(body.length, shot.src).toBeLessThan(300_000);
      const { width, height } = pngSize(body);
      expect(`${width}x${height}`, shot.src).toBe(shot.sizes);
      // Chromium's rules for the richer sheet: wide is landscape, narrow portrait.
      expect(shot.form_factor === 'wide' ? width > height : height > width, shot.src).toBe(true);
    }
  }
});

test('the shell files a deploy changes are revalidated on every load', async ({ request }) => {
  for (const path of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/manifest.ru.webmanifest', '/miner']) {
    const r = await request.get(path);
    expect(r.ok(), path).toBe(true);
    expect(r.headers()['cache-control'], path).toBe('no-cache');
  }
  const sw = await request.get('/sw.js');
  expect(sw.headers()['content-type']).toMatch(/javascript/);
});

test('Chromium finds the app installable: the worker controls the page, answers its fetches, no installability errors', async ({
  playwright,
  launchOptions,
  baseURL,
}) => {
  // A persistent profile: Chromium never offers installation in an incognito-like context.
  const profile = mkdtempSync(join(tmpdir(), 'pxt-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const reloaded = await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseURL}/sw.js`);
    // The worker's fetch handler answered the navigation (from the precached shell).
    expect(reloaded?.fromServiceWorker()).toBe(true);
    // /api/ never gets the shell, even as a navigation.
    const api = await page.goto('/api/v1/config/');
    expect(api?.fromServiceWorker()).toBe(false);
    expect(api?.headers()['content-type']).toMatch(/application\/json/);
    await page.goto('/');

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${baseURL}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);

    // A Russian player gets the Russian manifest, and it is just as installable.
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'ru'));
    await page.reload();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.ru.webmanifest');
    // Chromium fetches the new manifest on its own time after the link changes: on a loaded machine
    // (two test files at once) that took longer than the default 5 s once.
    await expect
      .poll(async () => ((await cdp.send('Page.getAppManifest')) as { url: string }).url, { timeout: 20_000 })
      .toBe(`${baseURL}/manifest.ru.webmanifest`);
    const ruManifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[] };
    expect(ruManifest.errors).toEqual([]);
    expect(
      ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] }).installabilityErrors,
    ).toEqual([]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.reload();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    // Every built page links it, not only index.html: /blog (blog.html) and the other paths (app.html).
    for (const path of ['/blog', '/privacy']) {
      await page.goto(path);
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    }
    await page.goto('/');

    // Where the browser offers installation, the app shows its own Install button, from the next
    // page on (it would shove the page being read); "Not now" is remembered.
    // The offer comes when Chromium decides, so the player keeps moving between two pages until it shows.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(async () => {
      const next = page.url().endsWith('/privacy') ? 'Terms of Use' : 'Privacy Policy';
      await page.getByRole('contentinfo').getByRole('link', { name: next }).click();
      await expect(page.getByRole('button', { name: 'Install app' })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByRole('button', { name: 'Install app' })).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('pxt.installDismissed'))).toBe('1');
    await expect(page.getByRole('button', { name: 'Install app' })).toBeHidden();
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
