// What the first visit to / downloads, from the build in dist/ (run `npm run build` first), with
// each file's compressed size. Used by scripts/check-budgets.mjs (the byte budgets that fail the
// build) and by the bench (bench/bytes.ts), so both count the same files.
// What / loads: index.html; its module script, modulepreloads and stylesheets; the app's files of
// its start list (the JSON block `pxt-start`, src/lib/start-on-intent.ts: the entry and the modules
// it loads, downloaded at once or — a visitor's first visit — after load, to run at the first tap:
// sent on a first visit either way, so counted); the landing route's lazy chunk with its static
// imports and their CSS (from Vite's manifest); fonts and images those stylesheets and index.html
// reference; the translations index.html preloads (or prefetches after load).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const LANDING_ROUTE = 'src/app/routes/landing.tsx';
/** Loaded by main.tsx only inside Telegram (decisions §14): the Mini App's part of a first visit there. */
export const MINI_APP_ENTRY = 'src/features/telegram/mini-app.tsx';
export const DEFAULT_DIST = join(new URL('..', import.meta.url).pathname, 'dist');

const FONT = /\.(woff2?|ttf|otf|eot)$/i;
const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|ico)$/i;

/** @param {string} file */
export function kindOf(file) {
  if (file.endsWith('.js')) return 'js';
  if (file.endsWith('.css')) return 'css';
  if (file.endsWith('.html')) return 'html';
  if (FONT.test(file)) return 'font';
  if (IMAGE.test(file)) return 'image';
  return 'data';
}

/**
 * @param {string} [dist]
 * @param {{ telegram?: boolean }} [opts] telegram: the first visit as a Mini App (the Mini App's chunk besides)
 * @returns {{ files: { file: string, kind: string, raw: number, gzip: number, brotli: number }[], problems: string[] }}
 */
export function analyzeFirstVisit(dist = DEFAULT_DIST, opts = {}) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error('dist/index.html is missing: run `npm run build` first');
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath))
    throw new Error('dist/.vite/manifest.json is missing: vite.config.ts must keep build.manifest');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  /** @type {string[]} */
  const problems = [];
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const strip = (/** @type {string} */ p) => p.replace(/^\//, '').split(/[?#]/)[0];

  /** @type {Set<string>} */
  const files = new Set(['index.html']);
  for (const m of html.matchAll(/<script\b[^>]*type="module"[^>]*src="([^"]+)"/g)) files.add(strip(m[1]));
  for (const m of html.matchAll(/<link\b[^>]*rel="(?:modulepreload|stylesheet|icon|preload)"[^>]*href="([^"]+)"/g))
    files.add(strip(m[1]));
  for (const m of html.matchAll(/<img\b[^>]*src="([^"]+)"/g)) files.add(strip(m[1]));
  // The start list: the app's entry and modules, no longer tags of the HTML.
  const startList = /<script type="application\/json" id="pxt-start">([^<]*)<\/script>/.exec(html);
  const start = startList ? JSON.parse(startList[1]) : null;
  if (start) for (const f of [start.entry, ...start.modules, ...start.pageModules]) files.add(strip(f));
  else if (!html.includes('type="module"')) problems.push('index.html has neither a module script nor a start list');
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
  // Translations preloaded by index.html's pre-paint script (or prefetched after load), English: the
  // start list names them; a build without one (no prerender) has the readable script, whose
  // `pageNamespaces` (scripts/pre-paint-scripts.ts) gives them for /.
  const fromScript = /namespaces = \[([^\]]*)\];\s*if \(path === "\/"\) namespaces\.push\("([\w-]+)"\)/.exec(html);
  const namespaces = start
    ? start.namespaces
    : fromScript && [...(fromScript[1].match(/[\w-]+/g) ?? []), fromScript[2]];
  if (!namespaces)
    problems.push("index.html names no translations to preload: scripts/first-visit.mjs can't count them");
  for (const ns of namespaces ?? []) files.add(`locales/en/${ns}.json`);

  // The landing chunk and everything it imports statically (Vite preloads those with it).
  /** @param {string} key @param {Set<string>} seen */
  function addWithImports(key, seen = new Set()) {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) {
      problems.push(`${key} is not in the Vite manifest`);
      return;
    }
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const asset of chunk.assets ?? []) if (FONT.test(asset) || IMAGE.test(asset)) files.add(asset);
    for (const dep of chunk.imports ?? []) addWithImports(dep, seen);
  }
  // The entry and its static imports (whether a tag of the HTML or the start list names them).
  if (entryKey) addWithImports(entryKey);
  addWithImports(LANDING_ROUTE);
  if (opts.telegram) addWithImports(MINI_APP_ENTRY);

  // Fonts and images the first visit's stylesheets pull in.
  for (const css of [...files].filter((f) => f.endsWith('.css'))) {
    if (!existsSync(join(dist, css))) continue;
    for (const m of readFileSync(join(dist, css), 'utf8').matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
      const ref = m[1];
      if (ref.startsWith('data:') || /^[a-z]+:\/\//i.test(ref)) continue;
      const path = ref.startsWith('/') ? strip(ref) : strip(join(css, '..', ref));
      if (FONT.test(path) || IMAGE.test(path)) files.add(path);
    }
  }

  const forbidden = new Set(
    Object.entries(manifest)
      .filter(([key]) => key.includes('node_modules/@metamask/'))
      .map(([, chunk]) => chunk.file),
  );
  // Telegram's SDK only inside Telegram.
  const miniApp = opts.telegram ? null : manifest[MINI_APP_ENTRY]?.file;
  const rows = [];
  for (const file of [...files].sort()) {
    const path = join(dist, file);
    if (!existsSync(path)) {
      problems.push(`${file} is referenced by the first visit but missing from dist/`);
      continue;
    }
    const body = readFileSync(path);
    const kind = kindOf(file);
    rows.push({
      file,
      kind,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
    if (kind !== 'js') continue;
    if (forbidden.has(file)) problems.push(`${file} (MetaMask SDK) is loaded by the first visit to /`);
    if (file === miniApp) problems.push(`${file} (the Mini App, Telegram's SDK) is loaded outside Telegram`);
    const text = body.toString('utf8');
    if (text.includes('accounts.google.com/gsi/client'))
      problems.push(`${file} carries the Google sign-in script loader into the first visit to /`);
    if (/MetaMaskSDK|sdk-communication-layer/.test(text)) problems.push(`${file} contains MetaMask SDK code`);
    if (!opts.telegram && text.includes('web_app_trigger_haptic_feedback'))
      problems.push(`${file} carries Telegram's SDK into the first visit outside Telegram`);
  }
  return { files: rows, problems };
}

/**
 * Totals per kind. `compressed` is the larger of the gzip and brotli totals (gzip in practice):
 * what a client that only speaks gzip downloads, the figure budgets are checked on.
 * @param {{ kind: string, raw: number, gzip: number, brotli: number }[]} rows
 */
export function totalsByKind(rows) {
  /** @type {Record<string, { count: number, raw: number, gzip: number, brotli: number, compressed: number }>} */
  const out = {};
  for (const r of rows) {
    const t = (out[r.kind] ??= { count: 0, raw: 0, gzip: 0, brotli: 0, compressed: 0 });
    t.count++;
    t.raw += r.raw;
    t.gzip += r.gzip;
    t.brotli += r.brotli;
    t.compressed = Math.max(t.gzip, t.brotli);
  }
  return out;
}

export const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
