// Request logs keep no mailed token: the confirmation link's token travels in an API path
// (/auth/confirm-email/<token>/) and in the app link's query (/?modal=…&token=…). The real app
// logs to a captured stream while a player confirms an account both ways.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { redactUrl } from '../../server/lib/log-redaction';
import { API, mailedToken, otherIp, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { createPgDatabase, type TestApp, testDialects } from '../helpers/test-app';

function readOutbox(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
}

describe.each(testDialects())('request logs on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-logs-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
    const config = loadConfig({
      NODE_ENV: 'test', DATA_DIR: dataDir, STATIC_DIR: '', WORKER_INTERVAL_MS: '0', APP_URL: 'http://app.test', SCRYPT_LOG_N: '14', LOG_LEVEL: 'info',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    });
    const app: FastifyInstance = await buildApp(config, { logStream: { write: (line) => void lines.push(line) } });
    await app.ready();
    t = {
      app, dataDir, dialect,
      outbox: () => readOutbox(dataDir),
      async close() {
        await app.close();
        await pgDb?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
  afterAll(() => t?.close());

  it('logs the confirmation calls with the token replaced by a marker', async () => {
    const email = uniqueEmail('logs');
    const reg = await t.app.inject({ method: 'POST', url: `${API}/auth/register/`, payload: { email, password: PASSWORD, confirm_password: PASSWORD }, remoteAddress: otherIp() });
    expect(reg.statusCode, reg.body).toBeLessThan(300);
    const token = mailedToken(t, email, 'confirmRegistration');
    const from = lines.length;

    // The app link as the mail has it, then the call the page makes with its token.
    await t.app.inject({ method: 'GET', url: `/?modal=confirmRegistration&token=${token}` });
    const confirmed = await t.app.inject({ method: 'GET', url: `${API}/auth/confirm-email/${token}/` });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const written = lines.slice(from).map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    const urls = written.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    expect(urls).toEqual(['/?modal=confirmRegistration&token=[redacted]', `${API}/auth/confirm-email/[redacted]/`]);
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('redactUrl', () => {
  it('replaces secrets in auth paths and secret query parameters, and keeps the rest', () => {
    expect(redactUrl('/api/v1/auth/confirm-email-change/abc_DEF-123/?email=a%40b.c')).toBe('/api/v1/auth/confirm-email-change/[redacted]/?email=a%40b.c');
    expect(redactUrl('/api/v1/auth/confirm-email/abc')).toBe('/api/v1/auth/confirm-email/[redacted]');
    expect(redactUrl('/?modal=restorePassword&Token=x1&refCode=crew7&%74oken=x2')).toBe('/?modal=restorePassword&Token=[redacted]&refCode=crew7&%74oken=[redacted]');
    expect(redactUrl('/api/v1/auth/me')).toBe('/api/v1/auth/me');
    expect(redactUrl('/api/v1/mining/sessions/?page=2')).toBe('/api/v1/mining/sessions/?page=2');
  });
});
