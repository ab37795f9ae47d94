// `npm run admin -- <command>`: the compiled operator CLI (dist-server/admin.js), rebuilt first when
// the server sources are newer, so it works from a checkout and after a production install alike.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { builds, root } from './build-state.mjs';
import { requireNode } from './require-node.mjs';

requireNode();

if (builds.server.stale()) {
  if (!existsSync(join(root, 'node_modules', 'esbuild'))) {
    process.stderr.write(
      'error: the compiled server is missing or older than its sources; run `npm ci && npm run build` (esbuild is a dev dependency)\n',
    );
    process.exit(1);
  }
  const build = spawnSync('npm', ['run', '--silent', builds.server.script], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.setSourceMapsEnabled(true);
await import(new URL('../dist-server/admin.js', import.meta.url).href);
