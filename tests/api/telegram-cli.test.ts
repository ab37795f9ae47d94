// `npm run admin -- telegram setup` run for real (compiled, as admin-cli.test.ts runs the CLI),
// against the Bot API stand-in: the webhook, the menu button and the commands it sets, and its
// refusals (no bot configured, an http APP_URL Telegram would refuse, the Bot API refusing).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';

const ROOT = join(import.meta.dirname, '..', '..');
const outdir = join(ROOT, '.tmp', `dist-admin-tg-${randomBytes(4).toString('hex')}`);

describe('telegram setup', () => {
  let tg: TelegramStandIn;
  let dataDir: string;

  beforeAll(async () => {
    await buildServer(outdir);
    tg = await startTelegramStandIn();
    dataDir = mkdtempSync(join(tmpdir(), 'pxt-tg-cli-'));
  }, 60_000);
  afterAll(async () => {
    await tg?.close();
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    tg.calls.length = 0;
  });

  function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|APP_URL|TELEGRAM_|DISCORD_)/.test(k)) base[k] = v;
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--enable-source-maps', join(outdir, 'admin.js'), ...args],
        { cwd: ROOT, env: { ...base, NODE_ENV: 'test', DATA_DIR: dataDir, ...env }, timeout: 25_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      );
    });
  }

  it('sets the webhook with its secret, the menu button opening the Mini App, and /start', async () => {
    const run = await cli(['telegram', 'setup'], { ...tg.env, APP_URL: 'https://pxt.example.com' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(tg.callsOf('setWebhook').map((c) => c.body)).toEqual([
      {
        url: 'https://pxt.example.com/api/v1/telegram/webhook/',
        secret_token: tg.webhookSecret,
        allowed_updates: ['message'],
        drop_pending_updates: false,
      },
    ]);
    expect(tg.callsOf('setChatMenuButton').map((c) => c.body)).toEqual([
      { menu_button: { type: 'web_app', text: 'Play', web_app: { url: 'https://pxt.example.com/' } } },
    ]);
    expect(tg.callsOf('setMyCommands').map((c) => c.body)).toEqual([
      { commands: [{ command: 'start', description: 'Open PXT Companion' }] },
      { commands: [{ command: 'start', description: 'Открыть PXT Companion' }], language_code: 'ru' },
    ]);
    expect(run.stdout).toContain('webhook: https://pxt.example.com/api/v1/telegram/webhook/');
    expect(run.stdout).toContain('menu button: "Play" opens https://pxt.example.com/');
    // The secret is set, never printed.
    expect(run.stdout).not.toContain(tg.webhookSecret);
  });

  it('takes an http APP_URL on a loopback host outside production (a local stand-in)', async () => {
    const run = await cli(['telegram', 'setup'], { ...tg.env, APP_URL: 'http://127.0.0.1:8080' });
    expect(run.code, run.stderr).toBe(0);
    expect(tg.callsOf('setWebhook')[0].body.url).toBe('http://127.0.0.1:8080/api/v1/telegram/webhook/');
  });

  it('refuses an http APP_URL Telegram would refuse, and a server without a bot, calling nothing', async () => {
    const http = await cli(['telegram', 'setup'], { ...tg.env, APP_URL: 'http://pxt.example.com' });
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/APP_URL must be https:\/\/ for Telegram/);
    const none = await cli(['telegram', 'setup'], { APP_URL: 'https://pxt.example.com' });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/Telegram is not configured/);
    const usage = await cli(['telegram', 'nope'], { ...tg.env, APP_URL: 'https://pxt.example.com' });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/telegram setup/);
    expect(tg.calls).toEqual([]);
  });

  it('says which call the Bot API refused', async () => {
    tg.tooManyRequests('setChatMenuButton', 5);
    const run = await cli(['telegram', 'setup'], { ...tg.env, APP_URL: 'https://pxt.example.com' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/refused setChatMenuButton: Too Many Requests/);
  });
});
