// The page's CSP as a browser receives it: no inline script unless the build hashed it, fetches
// only to the app and the hosts the sign-in flows need, fonts from the app only.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCspHashes } from '../../scripts/vite-plugin-csp-hashes';
import { API } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

function directives(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

const INLINE = `
      (function () { document.documentElement.dataset.inline = 'ran'; })();
    `;
const INDEX_HTML = `<!doctype html><html><head><title>t</title><script>${INLINE}</script></head>
<body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>`;
const inlineHash = `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`;
// app.html, the other paths' shell, with a script index.html lacks and a data block that is never run.
const SHELL_INLINE = `(function () { document.documentElement.dataset.shell = 'ran'; })();`;
const APP_HTML = `<!doctype html><html><head><title>t</title><script type="application/json" id="pxt-start">{"page":null}</script>
<script>${INLINE}</script></head><body><div id="root"></div><script>${SHELL_INLINE}</script></body></html>`;
const shellHash = `'sha256-${createHash('sha256').update(SHELL_INLINE).digest('base64')}'`;

describe.each(testDialects())('Content Security Policy on %s', (dialect) => {
  let api: TestApp;
  let withBuild: TestApp;
  let buildDir: string;
  beforeAll(async () => {
    api = await createTestApp(dialect);
    buildDir = mkdtempSync(join(tmpdir(), 'pxt-csp-build-'));
    writeFileSync(join(buildDir, 'index.html'), INDEX_HTML);
    writeFileSync(join(buildDir, 'app.html'), APP_HTML);
    writeCspHashes(buildDir); // what the Vite plugin does once the build is written
    withBuild = await createTestApp(dialect, { STATIC_DIR: buildDir });
  });
  afterAll(async () => {
    await api?.close();
    await withBuild?.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('allows no inline script, fetches only to the app, Google sign-in and the wallet relay, fonts only from the app', async () => {
    const res = await api.app.inject({ method: 'GET', url: `${API}/config/` });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('script-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'https://accounts.google.com/gsi/',
      'https://metamask-sdk.api.cx.metamask.io',
      'wss://metamask-sdk.api.cx.metamask.io',
      'https://raw.githubusercontent.com/MetaMask/metamask-sdk/refs/heads/gh-pages/locales/',
    ]);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
  });

  it("allows the served build's inline scripts by their hashes (every page's, once each), and nothing else inline", async () => {
    const page = await withBuild.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(INLINE);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/client', inlineHash, shellHash]);
    // Another path gets the shell, allowed by the same policy.
    const shell = await withBuild.app.inject({ method: 'GET', url: '/miner' });
    expect(shell.body).toContain(SHELL_INLINE);
    expect(shell.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    // The API's answers carry the same policy.
    const apiAnswer = await withBuild.app.inject({ method: 'GET', url: `${API}/config/` });
    expect(apiAnswer.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });
});
