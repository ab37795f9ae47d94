// Player set-up for the quest and referral browser tests, beside helpers.ts: sign-ups that end in
// the browser (the mailed link), and server state neither the API nor the operator CLI sets (a
// linked wallet, referred players), written straight into the server's SQLite file.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { mailedLink, type RunningServer } from './fixtures';

const withDb = <T>(server: RunningServer, run: (db: Database.Database) => T): T => {
  const db = new Database(join(server.dataDir, 'pxt.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    return run(db);
  } finally {
    db.close();
  }
};

export const randomWallet = () => `0x${randomBytes(20).toString('hex')}`;

async function register(
  server: RunningServer,
  email: string,
  password: string,
): Promise<{ link: string; registration: string }> {
  const r = await fetch(`${server.baseURL}/api/v1/auth/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, confirm_password: password }),
  });
  if (!r.ok) throw new Error(`register ${email}: ${r.status} ${await r.text()}`);
  const { registration } = (await r.json()) as { registration: string };
  return { link: await mailedLink(server.dataDir, server.baseURL, email, 'confirmRegistration'), registration };
}

/**
 * Registers an e-mail account through the API and returns the mailed confirmation link (not
 * opened). A browser opening it is not the registering one: signed in, but the password does not
 * count (decisions §13); see registerInBrowser for the player's own browser.
 */
export async function registerForLink(server: RunningServer, email: string, password = 'punk1234'): Promise<string> {
  return (await register(server, email, password)).link;
}

/**
 * Registers an e-mail account as the page's sign-up form would: the page keeps the `registration`
 * string the answer carried (where the app keeps it), so opening the returned link in this page
 * sends it as X-Registration and the password counts (decisions §13). Kept from the page's next navigation on.
 */
export async function registerInBrowser(
  page: Page,
  server: RunningServer,
  email: string,
  password = 'punk1234',
): Promise<string> {
  const { link, registration } = await register(server, email, password);
  await page.addInitScript((value) => {
    if (sessionStorage.getItem('pxt.e2e.registered')) return;
    sessionStorage.setItem('pxt.e2e.registered', '1');
    localStorage.setItem('pxt.registration', value);
  }, registration);
  return link;
}

/** Links a wallet address to the player (what a signed wallet binding would store). */
export function setWallet(server: RunningServer, username: string, address = randomWallet()): string {
  withDb(server, (db) => {
    const r = db.prepare('UPDATE users SET wallet_address = ? WHERE lower(username) = lower(?)').run(address, username);
    if (r.changes !== 1) throw new Error(`no player ${username}`);
  });
  return address;
}

/**
 * Records a claimed one-hour mining session for the player, as a claim writes it (the session and
 * its `mining_claim` ledger row): the player becomes an active friend (decisions §12).
 */
function claimedSession(db: Database.Database, userId: number | bigint): void {
  const now = Date.now();
  const reward = 1_000_000; // 1 PXT, an hour at the base rate
  const session = db
    .prepare(
      'INSERT INTO mining_sessions (user_id, started_at, ends_at, claimed, claimed_at, task_boost_percent, referral_boost_percent, reward, auto) VALUES (?, ?, ?, 1, ?, 0, 0, ?, 0)',
    )
    .run(userId, now - 3_600_000, now - 1000, now, reward);
  db.prepare(
    "INSERT INTO ledger (user_id, currency, amount, reason, ref, unique_key, created_at) VALUES (?, 'token', ?, 'mining_claim', ?, ?, ?)",
  ).run(userId, reward, `session:${session.lastInsertRowid}`, `mining_claim:${session.lastInsertRowid}`, now);
  db.prepare('UPDATE users SET token = token + ? WHERE id = ?').run(reward, userId);
}

/** The named player claims a mining session (see claimedSession). */
export function claimSessionFor(server: RunningServer, username: string): void {
  withDb(server, (db) => {
    const row = db.prepare('SELECT id FROM users WHERE lower(username) = lower(?)').get(username) as
      { id: number } | undefined;
    if (!row) throw new Error(`no player ${username}`);
    claimedSession(db, row.id);
  });
}

/**
 * Adds `count` players who signed up through `referrer`'s link and, unless `active` is false,
 * claimed a mining session; returns their usernames.
 */
export function addReferredPlayers(
  server: RunningServer,
  referrer: string,
  count: number,
  { active = true } = {},
): string[] {
  return withDb(server, (db) => {
    const row = db.prepare('SELECT id FROM users WHERE lower(username) = lower(?)').get(referrer) as
      { id: number } | undefined;
    if (!row) throw new Error(`no player ${referrer}`);
    const insert = db.prepare(
      'INSERT INTO users (username, referral_code, referrer_id, created_at) VALUES (?, ?, ?, ?)',
    );
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const name = `crew${randomBytes(4).toString('hex')}`;
      const friend = insert.run(name, randomBytes(8).toString('hex'), row.id, Date.now());
      if (active) claimedSession(db, friend.lastInsertRowid);
      names.push(name);
    }
    return names;
  });
}
