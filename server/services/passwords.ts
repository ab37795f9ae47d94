// Password hashing with scrypt (memory-hard, OWASP: N=2^17, r=8, p=1). Hashing runs on libuv's
// thread pool, so a login never blocks the event loop, and through the hash queue (hash-queue.ts),
// so a burst of sign-ins cannot take every thread: pass the request's client (hashClientOf) for
// its fair share; beyond the queue's caps these throw 503 `busy`. The parameters travel inside the stored
// string (`scrypt$<logN>$<r>$<p>$<salt>$<hash>`), so raising the cost later keeps old hashes valid
// and `needsRehash` tells a successful login to upgrade them.
import { randomBytes, scrypt as scryptCb, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { type HashClient, hashQueue } from './hash-queue';

const KEY_LENGTH = 32;
const SALT_BYTES = 16;
const R = 8;
const P = 1;
/** Cost parameters above these are refused when reading a stored hash (a corrupt row must not exhaust memory). */
const MAX_LOG_N = 20;

function scrypt(
  password: string,
  salt: Buffer,
  logN: number,
  r: number,
  p: number,
  who: HashClient | undefined,
): Promise<Buffer> {
  const N = 2 ** logN;
  // Node refuses to allocate more than `maxmem` (32 MiB by default); scrypt needs 128·N·r bytes.
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
  return hashQueue.run(
    who,
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scryptCb(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string, logN: number, who?: HashClient): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, logN, R, P, who);
  return `scrypt$${logN}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface Parsed {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 1 || logN > MAX_LOG_N || r < 1 || r > 32 || p < 1 || p > 16)
    return null;
  return { logN, r, p, salt: Buffer.from(parts[4], 'base64url'), key: Buffer.from(parts[5], 'base64url') };
}

export async function verifyPassword(password: string, stored: string, who?: HashClient): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await scrypt(password, parsed.salt, parsed.logN, parsed.r, parsed.p, who);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when a stored hash was made with other parameters than new hashes get. */
export function needsRehash(stored: string, logN: number): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.logN !== logN || parsed.r !== R || parsed.p !== P;
}

const dummyHashes = new Map<number, string>();

/**
 * Spends the same work as checking a real password, for logins of unknown addresses, so response
 * time does not reveal which addresses have accounts. The dummy needs the right parameters, not a
 * real hash: random bytes cost no extra scrypt run.
 */
export async function verifyAgainstNothing(password: string, logN: number, who?: HashClient): Promise<false> {
  let dummy = dummyHashes.get(logN);
  if (!dummy) {
    dummy = `scrypt$${logN}$${R}$${P}$${randomBytes(SALT_BYTES).toString('base64url')}$${randomBytes(KEY_LENGTH).toString('base64url')}`;
    dummyHashes.set(logN, dummy);
  }
  await verifyPassword(password, dummy, who);
  return false;
}
