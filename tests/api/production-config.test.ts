// Production that fails safe (decisions §15, issue 22): NODE_ENV=production refuses to start, with
// one clear line, without SMTP_URL (a live sign-in link printed to the journal otherwise) unless
// MAIL_TRANSPORT=outbox says so on purpose, and with an http:// APP_URL off loopback.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import { API, otherIp, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { ROOT } from '../helpers/server-process';
import { createTestApp, testDialects } from '../helpers/test-app';

const dataDir = mkdtempSync(join(tmpdir(), 'pxt-prodcfg-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PROD = {
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  APP_URL: 'https://pxt.example',
  SMTP_URL: 'smtp://mail.example:587',
};
const load = (env: Record<string, string | undefined>) =>
  loadConfig(Object.fromEntries(Object.entries({ ...PROD, ...env }).filter(([, v]) => v !== undefined)));

describe('production settings', () => {
  it('starts with SMTP_URL and an https APP_URL', () => {
    expect(load({}).production).toBe(true);
  });

  it('refuses to start without SMTP_URL, unless MAIL_TRANSPORT=outbox says so', () => {
    expect(() => load({ SMTP_URL: undefined })).toThrow(/SMTP_URL.*MAIL_TRANSPORT=outbox/);
    expect(load({ SMTP_URL: undefined, MAIL_TRANSPORT: 'outbox' }).mail).toEqual({
      transport: 'outbox',
      printLinks: false,
    });
    // Outside production the outbox stays the default, and its links are printed for `npm start`.
    expect(loadConfig({ DATA_DIR: dataDir }).mail).toEqual({ transport: 'outbox', printLinks: true });
  });

  it('refuses an http:// APP_URL whose host is not loopback', () => {
    expect(() => load({ APP_URL: 'http://pxt.example' })).toThrow(/APP_URL.*https/);
    expect(() => load({ APP_URL: 'http://10.0.0.5:8080' })).toThrow(/APP_URL.*https/);
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'])
      expect(load({ APP_URL: local }).appUrl, local).toBe(local);
  });

  it('prints one line and exits 1, with no stack trace, when the server refuses a setting', () => {
    const env = { ...process.env, ...PROD, SMTP_URL: '', PORT: '0', STATIC_DIR: '' };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 20_000,
      killSignal: 'SIGKILL',
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^Configuration error: .*SMTP_URL/);
    expect(run.stdout).toBe('');
  }, 30_000);
});

describe.each(testDialects())('MAIL_TRANSPORT=outbox in production on %s', (dialect) => {
  it('writes the link to the outbox and never prints it', async () => {
    const printed = vi.spyOn(console, 'log');
    const t = await createTestApp(dialect, {
      NODE_ENV: 'production',
      MAIL_TRANSPORT: 'outbox',
      APP_URL: 'https://pxt.example',
      LOG_LEVEL: 'info',
      JWT_SECRET: 'j'.repeat(48),
    });
    try {
      const email = uniqueEmail('outbox');
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/register/`,
        payload: { email, password: PASSWORD, confirm_password: PASSWORD },
        remoteAddress: otherIp(),
      });
      expect(res.statusCode).toBe(201);
      expect(t.outbox().join('\n')).toContain('confirmRegistration');
      expect(printed.mock.calls.flat().join('\n')).not.toContain('token=');
    } finally {
      printed.mockRestore();
      await t.close();
    }
  });
});
