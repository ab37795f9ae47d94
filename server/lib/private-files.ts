// DATA_DIR holds the database, the generated secrets and the mail outbox: only the server's own
// user may read any of it. New files and folders are created private; ones left by an older
// version are tightened at start.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

/** Removes group and other access from an existing file or folder (missing: nothing to do). */
export function tightenMode(path: string, mode: 0o700 | 0o600): void {
  if (!existsSync(path)) return;
  if ((statSync(path).mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (err) {
    // Not ours to change (a folder another user owns): say so rather than refuse to start.
    console.warn(`could not make ${path} private (${(err as Error).message}); other local users may read it`);
  }
}

/** Creates the folder 0700 (with missing parents), or tightens it when it exists. */
export function privateDir(path: string): void {
  if (existsSync(path)) tightenMode(path, 0o700);
  else mkdirSync(path, { recursive: true, mode: 0o700 });
}
