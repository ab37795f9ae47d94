// `npm run build:server`: compiles the server and the operator CLI into dist-server/ with esbuild,
// so production runs plain `node` (no loader: faster start, less memory, one process). shared/ is
// bundled in; node built-ins and npm packages stay imports, resolved from node_modules at run time.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist-server`;

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts', admin: 'server/cli/admin.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
