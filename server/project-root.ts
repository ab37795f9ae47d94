// The repository's root folder, found from this module's own location: server/ when run from
// source, dist-server/ or dist-server/chunks/ when compiled. Files that ship with the code (the
// blog, the built PWA) are looked up from here, so they do not depend on where the bundler put
// this module or on the working directory.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'pxt-companion') return dir;
    if (dirname(dir) === dir) throw new Error(`no pxt-companion package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
