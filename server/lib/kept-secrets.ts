// Secrets the environment does not give (JWT_SECRET, the VAPID keys) are generated once and kept
// in DATA_DIR/secrets.json (0600), so tokens and push subscriptions survive a restart. Several
// processes may start together on one fresh DATA_DIR: every secret is generated at once into a
// temporary file that is hard-linked into place only if no secrets.json exists yet, and every
// process then uses what the file holds, so all of them sign with the same keys.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import { tightenMode } from './private-files';

export interface KeptSecrets {
  jwt: string;
  vapid: { publicKey: string; privateKey: string };
}

export const SECRETS_FILE = 'secrets.json';
export type Stored = Record<string, string>;
export const NAMES = ['jwt', 'vapid'] as const;

/** The stored form: `vapid` is a JSON string, as earlier versions wrote it. */
export const generate = (): Stored => ({
  jwt: randomBytes(48).toString('base64url'),
  vapid: JSON.stringify(webpush.generateVAPIDKeys()),
});

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function read(file: string): Stored | null {
  // Only a file written in place by the copy fallback below can be seen half-written: wait for it.
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if (code(err) === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as Stored;
    } catch (err) {
      if (attempt >= 100) throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
      pause(20);
    }
  }
}

/** A complete private file beside `file`, flushed to disk before anyone can see it under the real name. */
function writeTemp(file: string, content: Stored): string {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(content, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/** Puts `tmp` in place as `file` only if `file` does not exist; false when another process was first. */
function placeIfAbsent(tmp: string, file: string): boolean {
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code(err) ?? '')) throw err;
  }
  // A file system without hard links: an exclusive copy is as atomic about who wins (readers wait out the copy).
  try {
    copyFileSync(tmp, file, constants.COPYFILE_EXCL);
    return true;
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    throw err;
  }
}

/** What DATA_DIR/secrets.json holds, without writing anything; null when there is none. */
export const readSecretsFile = (dataDir: string): Stored | null => read(join(dataDir, SECRETS_FILE));

export function parse(stored: Stored): KeptSecrets {
  const vapid = JSON.parse(stored.vapid) as KeptSecrets['vapid'];
  return { jwt: stored.jwt, vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey } };
}

export function keptSecrets(dataDir: string): KeptSecrets {
  const file = join(dataDir, SECRETS_FILE);
  let stored = read(file);
  if (!stored) {
    const tmp = writeTemp(file, generate());
    try {
      placeIfAbsent(tmp, file);
    } finally {
      unlinkSync(tmp);
    }
    stored = read(file)!;
  }
  if (NAMES.some((n) => !stored![n])) {
    // A file an earlier version wrote while the environment gave the other secret: add what is
    // missing once (this one-time upgrade is not guarded against a second process doing the same).
    const tmp = writeTemp(file, { ...generate(), ...stored });
    renameSync(tmp, file);
    stored = read(file)!;
  }
  tightenMode(file, 0o600);
  return parse(stored);
}
