// The configuration is one declarative schema (server/env/variables.ts, issue 22): it validates
// every variable, refuses a bad one in one line naming it, and generates the README's table — which
// this test holds to the schema (`npm run config-table` rewrites it). No database: the schema is the
// same for SQLite and PostgreSQL.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { withConfigTable } from '../../server/env/table';
import { parseVariables, variables } from '../../server/env/variables';
import { ROOT } from '../helpers/server-process';

const parent = mkdtempSync(join(tmpdir(), 'pxt-schema-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the configuration schema', () => {
  it('is what the README’s configuration table shows', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme, 'run `npm run config-table`').toBe(withConfigTable(readme));
  });

  it('declares every variable the server reads', () => {
    const declared = new Set(Object.keys(variables.shape));
    const read = new Set<string>();
    for (const file of sources(join(ROOT, 'server'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:env|v|known)(?:\.|\[')([A-Z][A-Z0-9]*_[A-Z0-9_]+)/g)) read.add(m[1]);
      // Settings read by name through a helper (services/ico.ts, payments/usdt-settings.ts).
      if (/\benv\[name\]|\(env, '/.test(text))
        for (const m of text.matchAll(/'((?:ICO|USDT|YOOKASSA|STRIPE)_[A-Z0-9_]+)'/g)) read.add(m[1]);
    }
    expect(read.size).toBeGreaterThan(40);
    expect([...read].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('refuses a bad value with one line naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /^PORT must be an integer ≥ 0, got "eighty"$/],
      [{ RATE_LIMITS: 'maybe' }, /^RATE_LIMITS must be "on" or "off", got "maybe"$/],
      [{ MAIL_TRANSPORT: 'pigeon' }, /^MAIL_TRANSPORT must be "smtp" or "outbox", got "pigeon"$/],
      [{ RATE_LIMIT_FACTOR: '0' }, /^RATE_LIMIT_FACTOR must be a number > 0/],
      [{ TRUST_PROXY: '0.0.0.0/0' }, /^TRUST_PROXY=0\.0\.0\.0\/0 is refused/],
      [{ PUSH_ALLOWED_HOSTS: 'a b' }, /^PUSH_ALLOWED_HOSTS: "a b" is not a host name$/],
    ];
    for (const [env, message] of cases) {
      let error: Error | null = null;
      try {
        parseVariables(env);
      } catch (err) {
        error = err as Error;
      }
      expect(error?.message, JSON.stringify(env)).toMatch(message);
      expect(error!.message).not.toContain('\n');
    }
  });

  it('writes nothing to DATA_DIR when a setting is refused', () => {
    const dataDir = join(parent, 'refused');
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', APP_URL: 'http://pxt.example', SMTP_URL: 'smtp://m' }),
    ).toThrow(/APP_URL/);
    expect(existsSync(dataDir)).toBe(false);
    loadConfig({ DATA_DIR: dataDir });
    expect(readdirSync(dataDir)).toEqual(['secrets.json']);
  });
});
