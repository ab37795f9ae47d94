// First-visit bytes of / from the build, counted by scripts/first-visit.mjs (the same files the
// budget check counts): compressed JavaScript, CSS, fonts, images, and the largest chunks.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFirstVisit, DEFAULT_DIST, type FileKind, kb, totalsByKind } from '../scripts/first-visit.mjs';
import type { Table } from './table';

const JS_TARGET = 100 * 1024;
const JS_BUDGET = 94 * 1024;
/** The first visit's JavaScript before issue 23 (b569969, brotli -11): Telegram must not make it larger. */
const JS_BEFORE_TELEGRAM = 95_232;
const section = 'First visit to / (brotli -11, what Chromium is sent)';

export function bytesSection(table: Table): void {
  if (!existsSync(join(DEFAULT_DIST, 'index.html'))) {
    table.add({ section, measure: 'bytes', result: 'n/a (no build: run `npm run build` first)', verdict: 'info' });
    return;
  }
  const { files, problems } = analyzeFirstVisit();
  const totals = totalsByKind(files);
  const js = totals.js?.brotli ?? 0;
  table.add({
    section,
    measure: 'JavaScript',
    result: `${kb(js)} in ${totals.js?.count ?? 0} files (${kb(totals.js?.raw ?? 0)} raw); budget ${kb(JS_BUDGET)}, ${js > JS_TARGET ? `${kb(js - JS_TARGET)} over` : `${kb(JS_TARGET - js)} under`} the target`,
    target: `≤ ${kb(JS_TARGET)}`,
    verdict: js <= JS_TARGET ? 'met' : 'missed',
  });
  table.add({
    section,
    measure: 'JavaScript, not larger than before Telegram (issue 23)',
    result: `${js} B vs ${JS_BEFORE_TELEGRAM} B (${js - JS_BEFORE_TELEGRAM >= 0 ? '+' : ''}${js - JS_BEFORE_TELEGRAM} B)`,
    target: `≤ ${JS_BEFORE_TELEGRAM} B`,
    verdict: js <= JS_BEFORE_TELEGRAM ? 'met' : 'missed',
  });
  const inTelegram = totalsByKind(analyzeFirstVisit(DEFAULT_DIST, { telegram: true }).files);
  const tgJs = inTelegram.js?.brotli ?? 0;
  table.add({
    section,
    measure: 'JavaScript inside Telegram (the Mini App with its SDK besides)',
    result: `${kb(tgJs)} in ${inTelegram.js?.count ?? 0} files (+${kb(tgJs - js)}; CSS +${kb((inTelegram.css?.brotli ?? 0) - (totals.css?.brotli ?? 0))})`,
    verdict: 'info',
  });
  const kinds: [FileKind, string][] = [
    ['css', 'CSS'],
    ['font', 'fonts'],
    ['image', 'images'],
    ['data', 'translations'],
    ['html', 'HTML'],
  ];
  for (const [kind, label] of kinds) {
    const t = totals[kind];
    table.add({
      section,
      measure: label,
      result: t ? `${kb(t.compressed)} in ${t.count} file(s) (${kb(t.raw)} raw)` : 'none',
      verdict: 'info',
    });
  }
  const largest = [...files].sort((a, b) => b.brotli - a.brotli).slice(0, 3);
  table.add({
    section,
    measure: 'largest files',
    result: largest.map((f) => `${f.file} ${kb(f.brotli)}`).join(', '),
    verdict: 'info',
  });
  table.add({
    section,
    measure: "MetaMask SDK, Google's script and Telegram's SDK absent",
    result: problems.length ? problems.join('; ') : 'yes',
    verdict: problems.length ? 'failed' : 'met',
  });
}
