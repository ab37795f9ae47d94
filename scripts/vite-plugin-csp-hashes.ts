// Vite plugin: once the build is written, hashes every inline script of the built pages and
// writes the hashes to CSP_HASHES_FILE beside it; the server allows exactly those in script-src
// (shared/content-security-policy.ts). Any inline script added to index.html later (language
// before paint, say) is covered by the next build with nothing else to change.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { CSP_HASHES_FILE } from '../shared/content-security-policy';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** The `type`s a browser runs as script (HTML's JavaScript MIME types, the ones a build writes). */
const SCRIPT_TYPES = new Set(['module', 'text/javascript', 'application/javascript']);

/** `sha256-…` of the text of each `<script>` without `src`, as the browser hashes it: the exact text
 * between the tags, with line breaks as the HTML parser leaves them (CR LF and CR become LF). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, text] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    // A data block (the start files, the blog's lists) is never run: no hash for it.
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1].toLowerCase();
    if (type !== undefined && !SCRIPT_TYPES.has(type)) continue;
    const hash = `sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}`;
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  return hashes;
}

/** The pages the build writes (scripts/vite-plugin-prerender.ts): index.html always, the others when prerendered. */
const PAGES = ['index.html', 'blog.html', 'app.html'];

/** Writes `dir/CSP_HASHES_FILE` for the built pages in `dir`; returns the hashes. */
export function writeCspHashes(dir: string): string[] {
  const hashes = [
    ...new Set(
      PAGES.filter((f) => f === 'index.html' || existsSync(join(dir, f))).flatMap((f) =>
        inlineScriptHashes(readFileSync(join(dir, f), 'utf8')),
      ),
    ),
  ];
  writeFileSync(join(dir, CSP_HASHES_FILE), `${JSON.stringify({ 'script-src': hashes }, null, 2)}\n`);
  return hashes;
}

export function cspHashes(): Plugin {
  let outDir = '';
  return {
    name: 'pxt:csp-hashes',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After every file is written, so the hashes are of the pages that ship.
    writeBundle() {
      writeCspHashes(outDir);
    },
  };
}
