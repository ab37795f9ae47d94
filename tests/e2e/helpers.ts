// Shortcuts for browser tests: accounts made through the real API, and signing in a page by
// giving it tokens the way the app stores them.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { mailedLink, readOutbox, type RunningServer, TSX } from './fixtures';

const ROOT = resolve(import.meta.dirname, '../..');
let counter = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}@example.com`;

async function call<T>(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  access?: string,
  headers: Record<string, string> = {},
): Promise<T> {
  const r = await fetch(`${server.baseURL}/api/v1/${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(access ? { authorization: `Bearer ${access}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data as T;
}

export interface Account {
  email: string;
  password: string;
  username: string;
  access: string;
  refresh: string;
}

/** A call to the API as `account`, outside the page (what another device or the operator would do). */
export async function apiAs<T>(server: RunningServer, account: Account, method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.baseURL}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.access}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** Selects a new player's welcome boost (temporary) for the next session, outside the page; its length in hours. */
export async function selectWelcomeBoost(server: RunningServer, account: Account): Promise<number> {
  const { boosts } = await apiAs<{ boosts: { id: number; boost_type: string; duration_seconds: number | null }[] }>(
    server,
    account,
    'GET',
    'mining/boosts/',
  );
  const welcome = boosts.find((b) => b.boost_type === 'temporary');
  if (!welcome) throw new Error('a new player has a temporary boost');
  await apiAs(server, account, 'POST', 'mining/select-temp-boost/', { boost_id: welcome.id });
  return welcome.duration_seconds! / 3600;
}

/** A confirmed e-mail account with a username and its password, made through the API (register → mailed link → confirm with X-Registration). */
export async function createEmailAccount(
  server: RunningServer,
  username: string,
  password = 'punk1234',
): Promise<Account> {
  const email = uniqueEmail(username.toLowerCase());
  const { registration } = await call<{ registration: string }>(server, 'POST', 'auth/register/', {
    email,
    password,
    confirm_password: password,
  });
  const link = new URL(await mailedLink(server.dataDir, server.baseURL, email, 'confirmRegistration'));
  // As the registering browser does (decisions §13): with X-Registration the typed password counts.
  const tokens = await call<{ access: string; refresh: string }>(
    server,
    'GET',
    `auth/confirm-email/${link.searchParams.get('token')}/`,
    undefined,
    undefined,
    {
      'x-registration': registration,
    },
  );
  await call(server, 'PATCH', 'auth/complete-registration/', { username, referral_link: null }, tokens.access);
  // The sign-in by the link mails a new-device notice after its answer (decisions §13): wait for it,
  // so it does not land among the mails the test itself brings about.
  await accountNotice(server, email, 'sign-in from a new device');
  return { email, password, username, ...tokens };
}

/** A player signed up with a Mini App's init data (POST auth/telegram/) who chose `username`; their tokens. */
export async function registerWithInitData(server: RunningServer, initData: string, username: string) {
  const tokens = await call<{ access: string; refresh: string; action: string }>(server, 'POST', 'auth/telegram/', {
    init_data: initData,
  });
  if (tokens.action !== 'registered') throw new Error(`auth/telegram/ answered ${tokens.action} for a new player`);
  await call(server, 'PATCH', 'auth/complete-registration/', { username, referral_link: null }, tokens.access);
  return tokens;
}

/** Waits ~5 s for an account notice (decisions §13) to `to` whose subject contains `subject`. */
export async function accountNotice(server: RunningServer, to: string, subject: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    const mail = readOutbox(server.dataDir).find(
      (m) => m.includes(`To: ${to}`) && /^Subject: (.*)$/m.exec(m)?.[1].includes(subject),
    );
    if (mail) return mail;
    if (tries >= 100) throw new Error(`no notice "${subject}" mailed to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Signs the page in by storing the tokens where the app keeps them (before any script runs). */
export async function signInPage(page: Page, account: Pick<Account, 'access' | 'refresh'>): Promise<void> {
  await page.addInitScript(({ access, refresh }) => {
    if (sessionStorage.getItem('pxt.e2e.seeded')) return;
    sessionStorage.setItem('pxt.e2e.seeded', '1');
    localStorage.setItem('pxt.accessToken', JSON.stringify(access));
    localStorage.setItem('pxt.refreshToken', JSON.stringify(refresh));
  }, account);
}

/**
 * The player's record as this device stored it (Dexie `user` 'me', src/lib/db.ts), or null. Reading
 * never creates the database: one made empty here would be the app's to upgrade on its next start.
 */
export function storedPlayer(page: Page): Promise<Record<string, unknown> | null> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown> | null>((ok) => {
        const open = indexedDB.open('pxt-companion');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => ok(null);
        open.onsuccess = () => {
          const db = open.result;
          const done = (row: Record<string, unknown> | null) => {
            db.close();
            ok(row);
          };
          try {
            const read = db.transaction('user', 'readonly').objectStore('user').get('me');
            read.onsuccess = () => done((read.result as Record<string, unknown> | undefined) ?? null);
            read.onerror = () => done(null);
          } catch {
            done(null);
          }
        };
      }),
  );
}

/** The operator CLI (`npm run admin`) on this server's database. */
export function admin(server: RunningServer, ...args: string[]): string {
  const r = spawnSync(TSX, ['server/cli/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...server.env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * A new deploy of the service worker in a copy of the build: sw.js changes, and so do the
 * precompressed copies the server sends in its place (.br, .gz), as the build would write them.
 */
export function deployNewWorker(buildCopy: string): void {
  const file = join(buildCopy, 'sw.js');
  appendFileSync(file, '\n// deploy 2\n');
  const sw = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(sw));
  writeFileSync(`${file}.gz`, gzipSync(sw));
}

/**
 * Holds back the app's entry script until the returned function is called: what the page does
 * before the app has started (a prerendered page's taps and keys) happens meanwhile.
 */
export const holdAppEntry = (page: Page) => holdAsset(page, '**/assets/index-*.js');

/** Holds back the files matching `glob` (a page's chunk, say) until the returned function is called. */
export async function holdAsset(page: Page, glob: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(glob, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
