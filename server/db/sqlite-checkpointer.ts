// SQLite's WAL checkpoints, made mostly by a thread of their own (issue 25). SQLite checkpoints in
// the connection whose commit takes the WAL past 1,000 pages: on the server's one connection, so
// on the event loop, copying up to 4 MB into the database file and ending with its fsync. In the
// bench's day of play (300 claims/s) calls stalled 0.6-0.7 s now and then (max 659-728 ms; once
// over 1 % of a run's calls, p99 579 ms); with no checkpoint on the main connection the max was
// 108 ms. A worker thread with its own connection makes a passive checkpoint (it never blocks a
// reader or the writer) every CHECKPOINT_EVERY_MS, so the copying and most of the syncing happen
// off the event loop. The main connection keeps SQLite's own checkpoint: under steady writes a
// passive checkpoint never catches up with the last frame, and only a writer that finds the WAL
// wholly copied starts it again from the beginning (without it the WAL grew by 180 MB a second in
// a write loop); it now finds nearly everything copied and synced. Should the thread stop, SQLite's
// own checkpoint is all there was before, and the caller hears why (the server logs it).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const CHECKPOINT_EVERY_MS = 500;

export interface Checkpointer {
  /** Stops the thread (its connection closed); resolves once it has exited. */
  stop(): Promise<void>;
}

// The thread's whole program (CommonJS, evaluated): the driver's path comes from the server, so it
// loads the same better-sqlite3 wherever the process was started.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  // Passive: what no reader still needs; another process's checkpoint in the way is a busy answer, not an error.
  db.pragma('wal_checkpoint(PASSIVE)');
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Why the thread stopped before it was told to (it cannot open the file, a checkpoint threw). */
export type CheckpointFailure = (error: unknown) => void;

/**
 * Passive checkpoints of the WAL database in `file`, every `everyMs`, from a thread of their own;
 * `onFailure` hears of a thread that could not start or stopped on an error.
 */
export function checkpointOffThread(
  file: string,
  everyMs = CHECKPOINT_EVERY_MS,
  onFailure: CheckpointFailure = () => undefined,
): Checkpointer {
  let thread: Worker;
  try {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    thread = new Worker(THREAD, { eval: true, workerData: { file, driver, everyMs } });
  } catch (error) {
    onFailure(error);
    return { stop: async () => undefined };
  }
  // Never what keeps the process alive; a failure leaves SQLite's own checkpoints, as before.
  thread.unref();
  thread.on('error', onFailure);
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  let stopping = false;
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        thread.postMessage('stop');
      }
      return exited;
    },
  };
}
