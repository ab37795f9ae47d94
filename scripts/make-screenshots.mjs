// Takes the install-sheet screenshots of the manifests (public/screenshots/*.png): the main page as
// a visitor sees it, narrow (phone) and wide (desktop), in English and Russian, from a running app.
// Run against a built app served by the server: `node scripts/make-screenshots.mjs http://127.0.0.1:8080`.
// The PNGs are committed; rerun when the main page changes a lot.
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.argv[2];
if (!base) throw new Error('usage: node scripts/make-screenshots.mjs <app URL>');
const OUT = new URL('../public/screenshots/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });

export const SHOTS = [
  { name: 'narrow', viewport: { width: 390, height: 844 } },
  { name: 'wide', viewport: { width: 1280, height: 800 } },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const lang of ['en', 'ru']) {
    for (const shot of SHOTS) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        serviceWorkers: 'block',
        reducedMotion: 'reduce',
      });
      await context.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
      const page = await context.newPage();
      await page.goto(base);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}${shot.name}-${lang}.png` });
      await context.close();
    }
  }
} finally {
  await browser.close();
}
