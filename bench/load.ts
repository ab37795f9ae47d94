// Throughput of one URL with autocannon (loopback only), after a short warm-up so the JIT and the
// database pool are not part of the figure.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadFigure {
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, connection errors and timeouts: a figure with any is not valid. */
  bad: number;
  /**
   * CPU time the server process spent per answer (user + system), in microseconds: unlike the
   * throughput it hardly depends on what else the machine is doing. NaN where /proc is missing.
   */
  cpuMicros: number;
  /** Of which in the kernel (system time): the socket's reads and writes, and waking the load generator. */
  systemMicros: number;
}

/** User and system CPU seconds of a process so far, from /proc (Linux); NaN elsewhere. */
export function cpuTimes(pid: number): { user: number; system: number } {
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }; // USER_HZ is 100 on Linux
  } catch {
    return { user: NaN, system: NaN };
  }
}

/** User + system CPU seconds of a process so far; NaN where /proc is missing. */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  duration: number;
  connections: number;
  /** The server's process id, for its CPU time. */
  pid?: number;
}

// A browser's header: the API compresses answers over 1 KB for clients that accept it.
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };

export async function load(url: string, opts: LoadOptions): Promise<LoadFigure> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(url)) throw new Error(`the bench only loads loopback servers, not ${url}`);
  const headers = { ...BROWSER_HEADERS, ...opts.headers };
  await autocannon({ url, headers, connections: opts.connections, duration: Math.min(1, opts.duration) });
  const before = opts.pid ? cpuTimes(opts.pid) : { user: NaN, system: NaN };
  const r = await autocannon({ url, headers, connections: opts.connections, duration: opts.duration });
  const after = opts.pid ? cpuTimes(opts.pid) : { user: NaN, system: NaN };
  const system = after.system - before.system;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
    cpuMicros: ((after.user - before.user + system) * 1e6) / r.requests.total,
    systemMicros: (system * 1e6) / r.requests.total,
  };
}
