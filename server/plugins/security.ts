// Security headers and compression. The Content Security Policy is shared/content-security-policy.ts,
// with the hashes of the built index.html's inline scripts (written by the build beside it) allowed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CSP_HASHES_FILE, isScriptHash } from '@shared/content-security-policy';
import { securityHeaders } from '../lib/security-headers';
import { registerCompression } from './compress-json';

/** The build's inline-script hashes; none without a build (API only) or without the file (an old build). */
function buildScriptHashes(app: FastifyInstance): string[] {
  const dir = app.config.staticDir;
  if (!dir || !existsSync(join(dir, 'index.html'))) return [];
  const file = join(dir, CSP_HASHES_FILE);
  if (!existsSync(file)) {
    app.log.warn(
      `${file} is missing: inline scripts of index.html will be blocked by the CSP; rebuild with \`npm run build\``,
    );
    return [];
  }
  const hashes: unknown = JSON.parse(readFileSync(file, 'utf8'))['script-src'];
  if (!Array.isArray(hashes) || !hashes.every(isScriptHash))
    throw new Error(`${file}: "script-src" must be a list of sha256-… hashes`);
  return hashes;
}

export default fp(
  async function security(app: FastifyInstance) {
    const all = securityHeaders({ scriptHashes: buildScriptHashes(app), telegram: app.config.telegram !== null });
    // Given to Fastify's reply, which writes them with its own in one writeHead: set on the raw
    // response instead, each was validated and stored there, then copied over by Fastify one by one.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(all);
      done();
    });
    await registerCompression(app, {
      global: true,
      encodings: ['br', 'gzip'],
      // Quality 11 (the default) costs more CPU per API answer than it saves bytes.
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'security', dependencies: ['config'] },
);
