// Security headers and compression. The Content Security Policy is shared/content-security-policy.ts,
// with the hashes of the built index.html's inline scripts (written by the build beside it) allowed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { CSP_HASHES_FILE, cspHeaderValue, isScriptHash } from '@shared/content-security-policy';
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

/** The headers a helmet middleware sets, read by running it once on a stand-in response. */
function staticHeaders(middleware: ReturnType<typeof helmet>): [string, string][] {
  const set: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, String(value)]),
    removeHeader: () => {},
  };
  let finished = false;
  middleware({} as never, res as never, () => void (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously: its headers cannot be set as a list');
  return set;
}

export default fp(
  async function security(app: FastifyInstance) {
    const telegram = app.config.telegram !== null;
    const csp = cspHeaderValue(buildScriptHashes(app), { telegram });
    // helmet's headers do not depend on the request (no CSP nonce: the policy is built above), so
    // they are read from it once and set as a list: its middleware chain cost more than the headers.
    const headers = staticHeaders(
      helmet({
        contentSecurityPolicy: false,
        crossOriginEmbedderPolicy: false,
        crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
        // Telegram's web clients frame the Mini App; the CSP's frame-ancestors says where instead
        // (browsers that know it ignore X-Frame-Options, which cannot name another origin).
        ...(telegram ? { xFrameOptions: false } : {}),
      }),
    );
    headers.unshift(['Content-Security-Policy', csp]);
    // Given to Fastify's reply, which writes them with its own in one writeHead: setting each on the
    // raw response validated and stored it there first, and Fastify then copied its headers over one
    // by one: twice the cost per answer on a bare Fastify route. A route may still replace one (the
    // blog covers' stricter CSP). Nothing in this stack sets X-Powered-By.
    // In lower case, as Fastify keeps them: its reply.header lowercases every name it is given, and
    // a name already in lower case costs no new string per answer.
    const all = Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
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
