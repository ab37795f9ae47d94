// Vite plugin: once every file of the build is written (the service worker included), writes
// `file.br` (brotli quality 11) and `file.gz` (gzip level 9) next to each compressible file, so the
// server (server/plugins/static-app.ts, `preCompressed`) and nginx (`gzip_static`/`brotli_static`)
// send the smallest body without compressing per request at a quality they could not afford.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|webmanifest|svg|txt|xml|map)$/i;
/** Below this a compressed copy saves less than a packet's headers. */
const MIN_BYTES = 512;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes the .br and .gz of every compressible file under `dir`; returns how many files it compressed. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(path) || statSync(path).size < MIN_BYTES) continue;
    const body = readFileSync(path);
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    // A copy that is not smaller is not worth a second read from disk.
    if (br.length < body.length) writeFileSync(`${path}.br`, br);
    if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
    count++;
  }
  return count;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pxt:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // Last, after vite-plugin-pwa has written sw.js in its own closeBundle.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDir(outDir);
      },
    },
  };
}
