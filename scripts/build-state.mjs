// Which builds are missing or older than their sources, for `npm start` and `npm run admin`: the
// PWA (dist/, by Vite) and the compiled server (dist-server/, by scripts/build-server.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function stale(output, inputs) {
  const out = join(root, output);
  if (!existsSync(out)) return true;
  const sourceTime = Math.max(
    ...inputs
      .map((p) => join(root, p))
      .filter(existsSync)
      .map(newestMtime),
  );
  return statSync(out).mtimeMs < sourceTime;
}

export const builds = {
  app: {
    script: 'build:app',
    stale: () =>
      stale('dist/index.html', [
        'src',
        'sw',
        'shared',
        'public',
        'index.html',
        'vite.config.ts',
        'scripts/vite-plugin-csp-hashes.ts',
        'scripts/vite-plugin-precompress.ts',
        'scripts/vite-plugin-react-router-treeshake.ts',
        'scripts/vite-plugin-prerender.ts',
        'scripts/pre-paint-scripts.ts',
        'package.json',
      ]),
  },
  server: {
    script: 'build:server',
    stale: () =>
      stale('dist-server/main.js', ['server', 'shared', 'package.json', 'tsconfig.json', 'scripts/build-server.mjs']),
  },
};
