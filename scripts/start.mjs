// `npm start`: build the PWA when there is no build or the sources are newer, then serve app + API.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const inputs = ['src', 'sw', 'shared', 'public', 'index.html', 'vite.config.ts', 'scripts/vite-plugin-csp-hashes.ts', 'package.json'].map((p) => join(root, p)).filter(existsSync);
const sourceTime = Math.max(...inputs.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const serve = spawnSync('npm', ['run', 'serve'], { cwd: root, stdio: 'inherit' });
process.exit(serve.status ?? 0);
