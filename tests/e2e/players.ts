// Player set-up for the quest and referral browser tests, beside helpers.ts: sign-ups that end in
// the browser (the mailed link), and server state neither the API nor the operator CLI sets (a
// linked wallet, referred players), written straight into the server's SQLite file.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { linkFromMail, outboxAfter, readOutbox, type RunningServer } from './fixtures';

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

/** Registers an e-mail account through the API and returns the mailed confirmation link (not opened). */
export async function registerForLink(server: RunningServer, email: string, password = 'punk1234'): Promise<string> {
  const before = readOutbox(server.dataDir).length;
  const r = await fetch(`${server.baseURL}/api/v1/auth/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, confirm_password: password }),
  });
  if (!r.ok) throw new Error(`register ${email}: ${r.status} ${await r.text()}`);
  const mails = await outboxAfter(server.dataDir, before);
  return linkFromMail(mails[mails.length - 1], server.baseURL);
}

/** Links a wallet address to the player (what a signed wallet binding would store). */
export function setWallet(server: RunningServer, username: string, address = randomWallet()): string {
  withDb(server, (db) => {
    const r = db.prepare('UPDATE users SET wallet_address = ? WHERE lower(username) = lower(?)').run(address, username);
    if (r.changes !== 1) throw new Error(`no player ${username}`);
  });
  return address;
}

/** Adds `count` players who signed up through `referrer`'s link; returns their usernames. */
export function addReferredPlayers(server: RunningServer, referrer: string, count: number): string[] {
  return withDb(server, (db) => {
    const row = db.prepare('SELECT id FROM users WHERE lower(username) = lower(?)').get(referrer) as { id: number } | undefined;
    if (!row) throw new Error(`no player ${referrer}`);
    const insert = db.prepare('INSERT INTO users (username, referral_code, referrer_id, created_at) VALUES (?, ?, ?, ?)');
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const name = `crew${randomBytes(4).toString('hex')}`;
      insert.run(name, randomBytes(8).toString('hex'), row.id, Date.now());
      names.push(name);
    }
    return names;
  });
}
