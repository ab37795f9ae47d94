// The accessibility specs' axe-core scan (issue 15): a page or an open dialog is scanned once its
// entry animations have finished; a serious or critical violation is a finding the test fails on,
// lesser ones are listed in the test's annotation.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

export type Lang = 'en' | 'ru';

export interface Finding {
  where: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
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

export async function scan(page: Page, where: string, findings: Finding[]): Promise<void> {
  await settle(page);
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  scanned.push({
    where,
    minor: result.violations.filter((v) => v.impact === 'minor' || v.impact === 'moderate').map((v) => v.id),
  });
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    findings.push({
      where,
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    });
  }
}

/** Opens a dialog with `open`, scans it, closes it with Escape (or a reload when it cannot be closed). */
export async function scanDialog(
  page: Page,
  where: string,
  findings: Finding[],
  open: () => Promise<void>,
): Promise<void> {
  await open();
  const dialog = page.getByRole('dialog');
  await expect(dialog.first()).toBeVisible();
  await scan(page, where, findings);
  await page.keyboard.press('Escape');
  if (await dialog.count()) await page.reload();
}

export const click = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).first().click({ timeout: 15_000 });

/** Called once by each accessibility spec: every test is annotated with its scans' lesser findings. */
export function annotateScans(): void {
  test.afterEach(() => {
    const lesser = [...new Set(scanned.flatMap((s) => s.minor))];
    test.info().annotations.push({
      type: 'axe',
      description: `${scanned.length} scans; minor/moderate rules seen: ${lesser.join(', ') || 'none'}`,
    });
    scanned.length = 0;
  });
}

export function report(findings: Finding[]): string {
  return findings
    .map((f) => `${f.where}: [${f.impact}] ${f.id} — ${f.help}\n    ${f.targets.join('\n    ')}`)
    .join('\n');
}
