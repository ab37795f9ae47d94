// The hypervisor's share of the machine's time (Linux's /proc/stat "steal"): on a shared virtual
// machine the guest's cores can be taken away while its processes run, which neither their CPU time
// nor the run queue shows. Measured on this 2-core host in a day-of-play run: 32 % of the cores'
// time stolen, while the server used 71 % of one core and its p99 reached a second; two busy loops
// alone saw none. A figure taken under such steal is the host's, not the code's.
import { readFileSync } from 'node:fs';
import { percent } from './profile';

export interface CpuTimes {
  steal: number;
  total: number;
}

/** The machine's CPU counters now (all cores, in clock ticks); zeros where /proc/stat is not there. */
export function cpuTimes(): CpuTimes {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is inside user already.
    const total = fields.slice(0, 8).reduce((s, n) => s + n, 0);
    return { steal: fields[7] ?? 0, total };
  } catch {
    return { steal: 0, total: 0 };
  }
}

/** Share of the cores' time the hypervisor took between two readings (NaN where unknown). */
export function stolenShare(before: CpuTimes, after: CpuTimes = cpuTimes()): number {
  const total = after.total - before.total;
  return total > 0 ? (after.steal - before.steal) / total : NaN;
}

/** The share as printed: "unknown" where /proc/stat could not be read, never a false 0 %. */
export const stealPercent = (share: number) => (Number.isNaN(share) ? 'unknown' : percent(share));
