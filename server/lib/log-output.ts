// Where the server's log lines go in main.ts: stdout, without ever blocking the process on it
// (decisions §15). Pino's default destination writes synchronously; when the reader of stdout stops
// reading (a stuck journal, a pipe nobody drains) the write blocks the event loop for good and
// SIGTERM's handler never runs. Here lines are queued in memory and written by libuv's thread pool
// one batch at a time, so the event loop always runs; beyond MAX_QUEUED bytes new lines are dropped
// (and counted, in a line written once output flows again), and a reader that has gone (EPIPE) ends
// the writing, not the server. A write starts BATCH_MS after the first line queued (at once when
// BATCH_BYTES are waiting), so the lines of many requests leave in one write: started every turn of
// the event loop, a busy server wrote a batch of one or two requests at a time, each a write to the
// thread pool, its wake-ups and its callback (about 3 µs of CPU per request answered at info,
// `npm run bench`, issue 25). A line waits at most BATCH_MS; flush() still writes all at exit.
// Each line is copied into the batch's buffer as it comes, so the string dies young: kept in a list
// until the write, the lines of a batch (ropes of the request lines' parts) lived through the
// scavenges of a busy server and were flattened and encoded only then (0.1–0.6 µs per line on the
// 2-core machine, timed in-process). The request lines are not even made until their batch is put
// together (defer(): lib/request-lines.ts notes what they say and makes them in one loop), before
// any other line, so the log keeps the order things happened in.
import { write } from 'node:fs';

const MAX_QUEUED = 4 * 1024 * 1024;
const BATCH_MS = 20;
const BATCH_BYTES = 64 * 1024;
/** The batch's buffer: room for a full batch and the lines that made it full. */
const CHUNK_BYTES = 2 * BATCH_BYTES;
/** The most bytes a UTF-16 code unit takes in UTF-8. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Lines made only when their batch is put together (lib/request-lines.ts): made many at once, in
 * one tight loop, they cost a fraction of what the same lines cost made one by one between requests.
 */
export interface LineMaker {
  /** Writes every waiting line with `write`, oldest first, and forgets them. */
  drain(write: (line: string) => void): void;
}

export interface LogOutput {
  write(line: string): void;
  /**
   * From now on `maker`'s waiting lines go out before each batch leaves and before any line written
   * with write(), so the log keeps the order lines happened in. The maker calls the function this
   * returns when lines start waiting, and with `full` when it holds as many as it may: then they are
   * made at once.
   */
  defer(maker: LineMaker): (full: boolean) => void;
  /** Lines dropped so far because output did not flow. */
  dropped(): number;
  /** Resolves once every queued line is written, or after `ms` at most (before process.exit). */
  flush(ms: number): Promise<void>;
}

export function nonBlockingOutput(fd = 1, maxQueued = MAX_QUEUED): LogOutput {
  /** Filled buffers waiting, then the one lines go into (`chunk`, `used` bytes of it). */
  let full: Buffer[] = [];
  let chunk: Buffer | null = null;
  let used = 0;
  let queued = 0;
  let writing = false;
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let gone = false;
  let dropped = 0;
  let droppedReported = 0;
  let drained: (() => void)[] = [];
  let maker: LineMaker | null = null;
  /** The maker has lines waiting. */
  let made = false;
  const idle = () => gone || (!writing && !scheduled && queued === 0 && !made);
  const settle = () => {
    if (!idle()) return;
    for (const done of drained) done();
    drained = [];
  };

  const writeAll = (buf: Buffer, done: (err: NodeJS.ErrnoException | null) => void) => {
    write(fd, buf, 0, buf.length, null, (err, n) => {
      if (err?.code === 'EAGAIN') return void setTimeout(() => writeAll(buf, done), 50).unref();
      if (err || n === buf.length) return done(err);
      writeAll(buf.subarray(n), done);
    });
  };

  /** The waiting batch is written in this turn of the event loop, not BATCH_MS later. */
  const soon = () => {
    clearTimeout(timer);
    timer = undefined;
    scheduled = true;
    setImmediate(pump);
  };

  /** The lines in `chunk` join the filled buffers; the next line goes into a new one. */
  const seal = () => {
    if (chunk && used > 0) full.push(chunk.subarray(0, used));
    chunk = null;
    used = 0;
  };

  /** The waiting lines as one buffer; lines from now on go into a new one. */
  const take = (): Buffer => {
    seal();
    const batch = full.length === 1 ? full[0] : Buffer.concat(full);
    full = [];
    queued = 0;
    return batch;
  };

  const pump = () => {
    scheduled = false;
    timer = undefined;
    gather();
    if (writing || gone || queued === 0) return settle();
    let batch = take();
    if (dropped > droppedReported) {
      const notice = `${JSON.stringify({ level: 40, time: Date.now(), msg: `${dropped - droppedReported} log lines dropped: stdout was not read` })}\n`;
      batch = Buffer.concat([Buffer.from(notice), batch]);
      droppedReported = dropped;
    }
    writing = true;
    writeAll(batch, (err) => {
      writing = false;
      if (err) gone = true; // EPIPE and the like: nobody reads any more
      // The next batch at once when it is full or a flush waits for it; else it gathers lines first.
      if (gone || (queued === 0 && !made) || queued >= BATCH_BYTES || drained.length > 0) return pump();
      scheduled = true;
      timer = setTimeout(pump, BATCH_MS);
    });
  };

  /** Copies the line into the batch's buffer, a new one when it may not fit. */
  const append = (line: string): number => {
    const most = line.length * MAX_UTF8_PER_UNIT;
    if (chunk === null || chunk.length - used < most) {
      seal();
      chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, most));
    }
    const bytes = chunk.write(line, used);
    used += bytes;
    return bytes;
  };

  /** Queues the line, or drops it when the queue is full. */
  const enqueue = (line: string) => {
    if (gone) return;
    if (queued + line.length > maxQueued) {
      dropped++;
      return;
    }
    queued += append(line);
  };

  /** The maker's waiting lines join the queue. */
  function gather() {
    if (!made) return;
    made = false;
    maker!.drain(enqueue);
  }

  /** A batch goes out: at once when it is full, else BATCH_MS from now. */
  const schedule = () => {
    // A write under way takes the queue next; one that starts this turn takes this line too.
    if (writing || (scheduled && timer === undefined)) return;
    if (queued >= BATCH_BYTES) soon();
    else if (!scheduled) {
      scheduled = true;
      timer = setTimeout(pump, BATCH_MS);
    }
  };

  return {
    write(line: string) {
      gather();
      enqueue(line);
      schedule();
    },
    defer(next: LineMaker) {
      maker = next;
      return (full: boolean) => {
        made = true;
        if (full) gather();
        schedule();
      };
    },
    dropped: () => dropped,
    flush(ms: number) {
      gather();
      if (idle()) return Promise.resolve();
      if (timer !== undefined) soon();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        drained.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
