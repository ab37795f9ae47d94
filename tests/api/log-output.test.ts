// The server's log output (server/lib/log-output.ts) gathers lines into few writes: the lines of
// many requests leave in one write BATCH_MS after the first, at once when 64 KB wait or a flush
// asks, always whole and in order.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const writes = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    write: (...args: Parameters<typeof fs.write>) => {
      writes.count++;
      return (fs.write as (...a: unknown[]) => void)(...args);
    },
  };
});
const { nonBlockingOutput } = await import('../../server/lib/log-output');

describe('log output', () => {
  let dir: string;
  let fd: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pxt-log-'));
    fd = openSync(join(dir, 'out.log'), 'w');
    writes.count = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  const written = () => readFileSync(join(dir, 'out.log'), 'utf8');

  it('writes the lines of many requests in one write, BATCH_MS after the first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    const out = nonBlockingOutput(fd);
    for (let i = 0; i < 50; i++) out.write(`line ${i}\n`);
    await vi.advanceTimersByTimeAsync(19);
    expect(writes.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.count).toBe(1);
    vi.useRealTimers();
    await out.flush(1000);
    expect(written()).toBe(Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('writes at once when 64 KB are waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    const out = nonBlockingOutput(fd);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(line);
    await vi.advanceTimersByTimeAsync(0);
    expect(writes.count).toBe(1);
    vi.useRealTimers();
    await out.flush(1000);
    expect(written()).toBe(line.repeat(64));
  });

  it('a flush does not wait for the batch: the lines are out before its deadline', async () => {
    const out = nonBlockingOutput(fd);
    out.write('first\n');
    out.write('second\n');
    const started = Date.now();
    await out.flush(10_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(written()).toBe('first\nsecond\n');
  });

  it('a line on its own is written without a flush', async () => {
    const out = nonBlockingOutput(fd);
    out.write('alone\n');
    await vi.waitFor(() => expect(written()).toBe('alone\n'), { timeout: 2000, interval: 10 });
    expect(writes.count).toBe(1);
  });

  it('keeps lines whole and in order across its buffers: multi-byte text, and a line larger than a batch', async () => {
    const out = nonBlockingOutput(fd);
    const lines = [
      'первая строка ✓\n',
      `${'🙂'.repeat(40_000)}\n`,
      ...Array.from({ length: 3000 }, (_, i) => `{"i":${i},"msg":"ответ ${'x'.repeat(i % 50)}"}\n`),
      'last\n',
    ];
    for (const line of lines) out.write(line);
    await out.flush(10_000);
    expect(written()).toBe(lines.join(''));
  });

  /** A maker of lines (lib/request-lines.ts's role): it holds lines until the output drains it. */
  function maker() {
    const waiting: string[] = [];
    const m = {
      drains: 0,
      add: (line: string) => waiting.push(line),
      drain(write: (line: string) => void) {
        m.drains++;
        for (const line of waiting.splice(0)) write(line);
      },
    };
    return m;
  }

  it("makes a maker's lines when the batch goes out, and before any line written after them", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    const out = nonBlockingOutput(fd);
    const lines = maker();
    const waiting = out.defer(lines);
    lines.add('request 1\n');
    waiting(false);
    await vi.advanceTimersByTimeAsync(19);
    expect(lines.drains).toBe(0);
    out.write('a line of its own\n');
    expect(lines.drains).toBe(1);
    lines.add('request 2\n');
    waiting(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.count).toBe(1);
    expect(lines.drains).toBe(2);
    vi.useRealTimers();
    await out.flush(1000);
    expect(written()).toBe('request 1\na line of its own\nrequest 2\n');
  });

  it("makes a full maker's lines at once, and a flush makes the waiting ones", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    const out = nonBlockingOutput(fd);
    const lines = maker();
    const waiting = out.defer(lines);
    lines.add('full\n');
    waiting(true);
    expect(lines.drains).toBe(1);
    lines.add('waiting\n');
    waiting(false);
    vi.useRealTimers();
    await out.flush(1000);
    expect(lines.drains).toBe(2);
    expect(written()).toBe('full\nwaiting\n');
  });
});
