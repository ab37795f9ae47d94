// Byte budget of the first visit to / (run after `npm run build`; scripts/test.sh calls it).
// What / loads: index.html's module script and modulepreloads, plus the landing route's lazy chunk
// and its static imports (from Vite's manifest). The sum, compressed, must stay within the budget,
// and neither the MetaMask SDK nor the Google sign-in script may be part of it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const LANDING_ROUTE = 'src/app/routes/landing.tsx';
const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');

function fail(message) {
  console.error(`check-budgets: ${message}`);
  process.exit(1);
}

if (!existsSync(join(dist, 'index.html'))) fail('dist/index.html is missing: run `npm run build` first');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) fail('dist/.vite/manifest.json is missing: vite.config.ts must keep build.manifest');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const files = new Set();
for (const m of html.matchAll(/<script\b[^>]*type="module"[^>]*src="\/?([^"]+)"/g)) files.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="\/?([^"]+)"/g)) files.add(m[1]);

// The landing chunk and everything it imports statically (Vite preloads those with it).
function addWithImports(key, seen = new Set()) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) fail(`${key} is not in the Vite manifest`);
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) addWithImports(dep, seen);
}
addWithImports(LANDING_ROUTE);

const forbidden = Object.entries(manifest)
  .filter(([key]) => key.includes('node_modules/@metamask/'))
  .map(([, chunk]) => chunk.file);

let brotli = 0;
let gzip = 0;
let raw = 0;
const rows = [];
for (const file of [...files].filter((f) => f.endsWith('.js')).sort()) {
  const body = readFileSync(join(dist, file));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const gz = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  brotli += br;
  gzip += gz;
  rows.push([file, body.length, gz, br]);
  if (forbidden.includes(file)) fail(`${file} (MetaMask SDK) is loaded by the first visit to /`);
  const text = body.toString('utf8');
  if (text.includes('accounts.google.com/gsi/client')) fail(`${file} carries the Google sign-in script loader into the first visit to /`);
  if (/MetaMaskSDK|sdk-communication-layer/.test(text)) fail(`${file} contains MetaMask SDK code`);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log('First visit to / — JavaScript:');
for (const [file, size, gz, br] of rows) console.log(`  ${file.padEnd(40)} raw ${kb(size).padStart(9)}  gzip ${kb(gz).padStart(8)}  brotli ${kb(br).padStart(8)}`);
console.log(`  total: raw ${kb(raw)}, gzip ${kb(gzip)}, brotli ${kb(brotli)} (budget ${kb(BUDGET_BYTES)} compressed, checked on gzip, the larger)`);
if (Math.max(gzip, brotli) > BUDGET_BYTES) fail(`first visit to / transfers ${kb(Math.max(gzip, brotli))} of compressed JavaScript, over the ${kb(BUDGET_BYTES)} budget`);
console.log('check-budgets: ok');
