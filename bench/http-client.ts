// A small HTTP/1.1 client for load on loopback: a fixed number of keep-alive sockets, one call at a
// time on each, and a FIFO queue of its own for the calls waiting for a socket. Against the bare
// Fastify route it costs 14–16 µs of CPU per call where node:http costs 26–40 and fetch 90–116
// (measured side by side on this machine); and node:http's Agent, given a long queue of calls,
// spent 4.5 ms of CPU per call on it (a 10 s burst took minutes to drain). A generator slower than
// the server would measure itself. Answers are read by Content-Length or chunked framing.
import { connect, type Socket } from 'node:net';

/** A call that waited longer than the timeout for a socket is dropped unsent. */
export const NOT_SENT = 'waited over the timeout for a socket, not sent';

export interface Answer {
  /** 0 when the call failed (see `failure`). */
  status: number;
  failure?: 'connection error' | 'timeout' | typeof NOT_SENT;
  /** The body, when asked for. */
  body: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: string;
  /** Keep the body (most calls only need the status). */
  read?: boolean;
}

interface Pending {
  head: Buffer;
  body?: string;
  read: boolean;
  queuedAt: number;
  resolve: (a: Answer) => void;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** One keep-alive socket; `send` is called only when it is idle. */
class Connection {
  private socket: Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private current: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly port: number,
    private readonly timeoutMs: number,
    private readonly done: (c: Connection) => void,
  ) {}

  send(p: Pending): void {
    this.current = p;
    if (!this.socket) this.open();
    this.timer = setTimeout(() => this.fail('timeout'), this.timeoutMs);
    this.socket!.write(p.body === undefined ? p.head : Buffer.concat([p.head, Buffer.from(p.body)]));
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private open(): void {
    const socket = connect({ host: '127.0.0.1', port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.fail('connection error'));
    socket.on('close', () => {
      if (this.socket === socket) this.fail('connection error');
    });
    this.socket = socket;
  }

  /** The call failed: answer 0 and start afresh with a new socket next time. */
  private fail(failure: NonNullable<Answer['failure']>): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    this.buffer = Buffer.alloc(0);
    this.finish({ status: 0, body: '', failure });
  }

  private finish(answer: Answer): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const p = this.current;
    this.current = null;
    if (!p) return;
    p.resolve(answer);
    this.done(this);
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const end = this.buffer.indexOf(CRLF2);
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
    const start = end + 4;
    let body: Buffer;
    if (length) {
      const n = Number(length[1]);
      if (this.buffer.length < start + n) return;
      body = this.buffer.subarray(start, start + n);
      this.buffer = this.buffer.subarray(start + n);
    } else if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) {
      const parsed = dechunk(this.buffer, start);
      if (!parsed) return;
      body = parsed.body;
      this.buffer = this.buffer.subarray(parsed.end);
    } else {
      body = Buffer.alloc(0);
      this.buffer = this.buffer.subarray(start);
    }
    if (/\r\nconnection:\s*close/.test(lower)) this.close();
    this.finish({ status, body: this.current?.read ? body.toString('utf8') : '' });
  }
}

/** A chunked body from `start`, or null while incomplete. */
function dechunk(buf: Buffer, start: number): { body: Buffer; end: number } | null {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const line = buf.indexOf('\r\n', at);
    if (line < 0) return null;
    const size = parseInt(buf.subarray(at, line).toString('latin1'), 16);
    const from = line + 2;
    if (size === 0) return buf.length >= from + 2 ? { body: Buffer.concat(parts), end: from + 2 } : null;
    if (buf.length < from + size + 2) return null;
    parts.push(buf.subarray(from, from + size));
    at = from + size + 2;
  }
}

export class LoadClient {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];
  private readonly queue: Pending[] = [];
  private head = 0;

  /**
   * `sockets` connections at most; a call waits in the queue for one, and fails (status 0) if it
   * waited or then ran longer than `timeoutMs` each, so a step always ends.
   */
  constructor(
    private readonly port: number,
    sockets: number,
    private readonly timeoutMs: number,
  ) {
    for (let i = 0; i < sockets; i++) {
      const c = new Connection(port, timeoutMs, (free) => this.next(free));
      this.all.push(c);
      this.idle.push(c);
    }
  }

  call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const lines = [`${method} ${path} HTTP/1.1`, `host: 127.0.0.1:${this.port}`];
    for (const [k, v] of Object.entries(opts.headers ?? {})) lines.push(`${k}: ${v}`);
    if (opts.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(opts.body)}`);
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    return new Promise<Answer>((resolve) => {
      const p: Pending = { head, body: opts.body, read: opts.read ?? false, queuedAt: performance.now(), resolve };
      const c = this.idle.pop();
      if (c) c.send(p);
      else this.queue.push(p);
    });
  }

  /** Calls waiting for a socket. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  close(): void {
    for (const c of this.all) c.close();
  }

  private next(free: Connection): void {
    while (this.head < this.queue.length) {
      const p = this.queue[this.head++];
      if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      if (performance.now() - p.queuedAt > this.timeoutMs) {
        p.resolve({ status: 0, body: '', failure: NOT_SENT });
        continue;
      }
      free.send(p);
      return;
    }
    this.idle.push(free);
  }
}
