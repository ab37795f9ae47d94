// Cores of their own for the API section's servers and its load generator (Linux `taskset`). On two
// shared cores, unpinned, the server and autocannon took turns on both, and a call's three turns
// against its limit route scattered from 0.56× to 1.31× in one run (`npm run bench`, issue 25): the
// verdict was a coin toss. Pinned, the same build's turns agree within ±4 %, and the server has one
// core to itself, as it would with its clients on other machines.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

const SERVER_CORE = 0;
const GENERATOR_CORE = 1;

export interface Cores {
  /** Puts a server process (all its threads) on the servers' core; nothing when not pinning. */
  server(pid: number): void;
  /** Gives this process back every core. */
  release(): void;
  /** How the figures were taken, for the table. */
  readonly note: string;
}

const taskset = (cores: string, pid: number) =>
  execFileSync('taskset', ['-a', '-cp', cores, String(pid)], { stdio: 'ignore' });

/** Pins this process (the load generator) to one core and servers to another; unpinned where it cannot. */
export function pinCores(): Cores {
  const all = `0-${cpus().length - 1}`;
  try {
    if (cpus().length < 2) throw new Error('one core');
    taskset(String(GENERATOR_CORE), process.pid);
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    return { server: () => {}, release: () => {}, note: `unpinned (${why})` };
  }
  return {
    server: (pid) => taskset(String(SERVER_CORE), pid),
    release: () => taskset(all, process.pid),
    note: `servers on core ${SERVER_CORE}, load generator on core ${GENERATOR_CORE}`,
  };
}
