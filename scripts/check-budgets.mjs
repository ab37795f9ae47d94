// Byte budgets of the first visit to / (run after `npm run build`; scripts/test.sh calls it). The
// files counted are those of scripts/first-visit.mjs (shared with `npm run bench`). Budgets are
// bytes, never times: the compressed JavaScript must stay within BUDGET_BYTES, and neither the
// MetaMask SDK nor the Google sign-in script may be part of the first visit.
import { analyzeFirstVisit, kb, totalsByKind } from './first-visit.mjs';

/** Brotli (what Chromium is sent: the build's .br files); 92.5 KB measured with React Router's declarative mode. */
const BUDGET_BYTES = 94 * 1024;
/** Issue 14's ceiling for the first visit's JavaScript; the budget above is what was reached. */
const TARGET_BYTES = 100 * 1024;

function fail(message) {
  console.error(`check-budgets: ${message}`);
  process.exit(1);
}

let visit;
try {
  visit = analyzeFirstVisit();
} catch (err) {
  fail(err.message);
}
if (visit.problems.length > 0) fail(visit.problems.join('\n  '));

const js = visit.files.filter((f) => f.kind === 'js');
console.log('First visit to / — JavaScript:');
for (const { file, raw, gzip, brotli } of js)
  console.log(
    `  ${file.padEnd(40)} raw ${kb(raw).padStart(9)}  gzip ${kb(gzip).padStart(8)}  brotli ${kb(brotli).padStart(8)}`,
  );
const totals = totalsByKind(visit.files);
const t = totals.js;
console.log(
  `  total: raw ${kb(t.raw)}, gzip ${kb(t.gzip)}, brotli ${kb(t.brotli)} (budget ${kb(BUDGET_BYTES)} of brotli, what Chromium transfers)`,
);
const gap = t.brotli - TARGET_BYTES;
console.log(`  target ${kb(TARGET_BYTES)}: ${gap > 0 ? `${kb(gap)} over` : `${kb(-gap)} under`}`);
for (const kind of ['css', 'font', 'image', 'data', 'html']) {
  if (totals[kind])
    console.log(
      `  ${kind}: ${totals[kind].count} file(s), ${kb(totals[kind].compressed)} compressed (${kb(totals[kind].raw)} raw)`,
    );
}
if (t.brotli > BUDGET_BYTES)
  fail(`first visit to / transfers ${kb(t.brotli)} of brotli JavaScript, over the ${kb(BUDGET_BYTES)} budget`);
console.log('check-budgets: ok');
