// `npm start`: build the PWA and the server when either build is missing or older than its
// sources, then run the compiled server in this same process (one node process, like `npm run serve`).
import { spawnSync } from 'node:child_process';
import { builds, root } from './build-state.mjs';
import { requireNode } from './require-node.mjs';

requireNode();

for (const { script, stale } of Object.values(builds)) {
  if (!stale()) continue;
  const build = spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.setSourceMapsEnabled(true);
await import(new URL('../dist-server/main.js', import.meta.url).href);
