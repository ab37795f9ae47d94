// `npm run build:server`: compiles the server and the operator CLI into dist-server/ with esbuild,
// so production runs plain `node` (no loader: faster start, less memory, one process). shared/ is
// bundled in; node built-ins and npm packages stay imports, resolved from node_modules at run time.
// `node scripts/build-server.mjs <folder>` builds elsewhere (tests build into .tmp/).
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds main.js (the server) and admin.js (the CLI) with their source maps into `outdir`; or, given
 * `entryPoints` (output name → source), those (the bench compiles its own servers the same way).
 */
export async function buildServer(
  outdir = resolve(root, 'dist-server'),
  entryPoints = { main: 'server/main.ts', admin: 'server/cli/admin.ts' },
) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  await buildServer(process.argv[2] && resolve(process.argv[2]));
