// A small import resolver (eslint-module-utils interface v2) for eslint-plugin-boundaries: it has
// to know which FILE an import names to tell which element (feature, lib, shared, …) it belongs to.
// It knows our two aliases (tsconfig.json `paths`) and TypeScript's extensionless imports; npm
// packages and node built-ins are reported as not found, which boundaries treats as external.
// CommonJS because eslint-module-utils loads resolvers with require().
const { existsSync, statSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const ALIASES = [
  ['@/', path.join(root, 'src')],
  ['@shared/', path.join(root, 'shared')],
];
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx'];

function isFile(candidate) {
  return existsSync(candidate) && statSync(candidate).isFile();
}

exports.interfaceVersion = 2;

exports.resolve = function resolve(source, file) {
  let base;
  const alias = ALIASES.find(([prefix]) => source.startsWith(prefix));
  if (alias) base = path.join(alias[1], source.slice(alias[0].length));
  else if (source.startsWith('.')) base = path.resolve(path.dirname(file), source);
  else return { found: false };
  const hit = EXTENSIONS.map((ext) => base + ext).find(isFile);
  return hit ? { found: true, path: hit } : { found: false };
};
