// Accounts for API tests: reading the outbox's mails and their links, and signing up players the
// way a client does (register → mailed link → confirm; wallet signature; direct insert for speed).
import { expect } from 'vitest';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { walletBindText, walletLoginText, walletReauthText } from '@shared/wallet-texts';
import { openSession } from '../../server/services/sessions';
import { createUser } from '../../server/services/users';
import type { TestApp } from './test-app';

export const API = '/api/v1';
export const PASSWORD = 'secret123';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The first link of the plain-text part. */
  link: URL;
}

function decodeQuotedPrintable(s: string): string {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const m = joined[i] === '=' ? /^[0-9A-F]{2}$/.exec(joined.slice(i + 1, i + 3)) : null;
    if (m) {
      bytes.push(parseInt(m[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses the .eml text nodemailer writes (multipart/alternative: text, then HTML). */
export function parseMail(eml: string): Mail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(eml)?.[1]?.trim() ?? '';
  const parts = eml.split(/^--[^\n]*Part[^\n]*$/m);
  const textPart = parts.find((p) => /Content-Type: text\/plain/i.test(p)) ?? eml;
  const [partHeaders, ...bodyLines] = textPart.split(/\r?\n\r?\n/);
  let text = bodyLines.join('\n\n');
  if (/quoted-printable/i.test(partHeaders)) text = decodeQuotedPrintable(text);
  else if (/base64/i.test(partHeaders)) text = Buffer.from(text, 'base64').toString('utf8');
  const href = /https?:\/\/\S+/.exec(text)?.[0];
  if (!href) throw new Error(`no link in mail:\n${eml}`);
  return { to: header('To'), subject: header('Subject'), text, link: new URL(href) };
}

export const mails = (t: TestApp) => t.outbox().map(parseMail);

/**
 * An account notice (decisions §13: new device, method added or removed, password or e-mail
 * changed): its only link is the profile's security section, never a modal with a token.
 */
export const isAccountNotice = (m: Mail) => m.link.pathname === '/profile' && m.link.hash === '#security';

/** The account notices mailed to `to`, oldest first. */
export const noticesTo = (t: TestApp, to: string) => mails(t).filter((m) => m.to === to && isAccountNotice(m));

/**
 * The newest mail to `to` that is not an account notice (those are mailed after the answer, so one
 * may land after the link a test is waiting for); fails the test when there is none.
 */
export function lastMailTo(t: TestApp, to: string): Mail {
  const mine = mails(t).filter((m) => m.to === to && !isAccountNotice(m));
  expect(mine.length, `a mail to ${to}`).toBeGreaterThan(0);
  return mine[mine.length - 1];
}

/** The token of the newest mailed link to `to`, after checking the link opens `modal`. */
export function mailedToken(t: TestApp, to: string, modal: string): string {
  const { link } = lastMailTo(t, to);
  expect(`${link.origin}${link.pathname}`).toBe('http://app.test/');
  expect(link.searchParams.get('modal')).toBe(modal);
  const token = link.searchParams.get('token')!;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

let counter = 0;
let ipCounter = 0;
/** A client address no other call used: keeps per-IP limits out of tests that are not about them. */
export const otherIp = () => `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;

/** A fresh address per call, so tests sharing one database never collide. */
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now()}.${++counter}@example.com`;

/** Registers, opens the mailed link and returns the token pair. */
export async function registerAndConfirm(t: TestApp, email = uniqueEmail(), password = PASSWORD) {
  const reg = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/register/`,
    payload: { email, password, confirm_password: password },
    remoteAddress: otherIp(),
  });
  expect(reg.statusCode, reg.body).toBeLessThan(300);
  const token = mailedToken(t, email, 'confirmRegistration');
  // The registering browser's proof (decisions §13): with it the typed password becomes the account's.
  const res = await t.app.inject({
    method: 'GET',
    url: `${API}/auth/confirm-email/${token}/`,
    headers: { 'x-registration': reg.json().registration },
  });
  expect(res.statusCode, res.body).toBe(200);
  const pair = res.json() as { access: string; refresh: string; device: string };
  return { email, password, ...pair };
}

/** A player inserted directly (no mail, no hashing), with an access token. */
export async function quickUser(t: TestApp, fields: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.app.db, fields);
  return { user, access: await accessFor(t, user.id) };
}

/** An access token of a new session of `userId` (decisions §13: a token names a live session). */
export async function accessFor(t: TestApp, userId: number): Promise<string> {
  const sessionId = await openSession(t.app.db, userId, { userAgent: 'test', ip: '127.0.0.1' });
  return t.app.issueAccess(userId, sessionId);
}

export const newWallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

export async function signLogin(account: PrivateKeyAccount, timestamp = Date.now(), product = 'PXT Companion') {
  return {
    address: account.address,
    timestamp,
    signature: await account.signMessage({ message: walletLoginText(product, timestamp) }),
  };
}

export async function signBind(account: PrivateKeyAccount, timestamp = Date.now()) {
  return {
    address: account.address,
    timestamp,
    signature: await account.signMessage({ message: walletBindText(timestamp) }),
  };
}

export async function signReauth(account: PrivateKeyAccount, product: string, timestamp = Date.now()) {
  return {
    address: account.address,
    timestamp,
    signature: await account.signMessage({ message: walletReauthText(product, timestamp) }),
  };
}

let lastReauthAt = 0;
/**
 * A single-use `reauth` string (decisions §13) from POST /auth/reauth/, the way a client gets one
 * before a change: `proof` is `{ password }`, a wallet account (it signs walletReauthText), or any
 * other body /auth/reauth/ takes.
 */
export async function reauthFor(
  t: TestApp,
  access: string,
  proof: { password: string } | PrivateKeyAccount | Record<string, unknown>,
): Promise<string> {
  // Each signed message is accepted once: a fresh millisecond per signature, even for calls in one millisecond.
  lastReauthAt = Math.max(Date.now(), lastReauthAt + 1);
  const body =
    'signMessage' in proof && typeof proof.signMessage === 'function'
      ? await signReauth(proof as PrivateKeyAccount, t.app.config.appName, lastReauthAt)
      : proof;
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/reauth/`,
    payload: body,
    headers: bearer(access),
    remoteAddress: otherIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().reauth as string;
}

export async function walletLogin(t: TestApp, account = newWallet()) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/login/`,
    payload: await signLogin(account),
    remoteAddress: otherIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { account, ...(res.json() as { access: string; refresh: string }) };
}
