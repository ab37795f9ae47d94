// Screenshots of the issue-16 outcome tests at phone size, saved as test artifacts and under
// .tmp/screens/<name>-<tag>.png (outside test-results/, which each run empties) (tag: E2E_SHOT_TAG, "after" unless set, e.g. "before" when
// the same test runs against the old build) so two runs can be compared side by side.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

export const PHONE = { width: 390, height: 844 } as const;
export const LANGUAGES = ['en', 'ru'] as const;
export type Lang = (typeof LANGUAGES)[number];

const DIR = resolve(import.meta.dirname, '../../.tmp/screens');

export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = `${name}-${process.env.E2E_SHOT_TAG ?? 'after'}.png`;
  mkdirSync(DIR, { recursive: true });
  const body = await page.screenshot({ path: resolve(DIR, file) });
  await testInfo.attach(file, { body, contentType: 'image/png' });
}

/** Starts the page in the given language (the switcher's stored choice). */
export async function useLanguage(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
}
