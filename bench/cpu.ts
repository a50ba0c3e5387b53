import { readdirSync, readFileSync } from 'node:fs';

/**
 * User plus system CPU time a process has used, in µs (clock ticks of 10 ms). CPU per request is
 * steadier than throughput on a shared machine: it does not count the time the process waited
 * for a core.
 */
export function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * CPU time every core has spent busy since boot, in µs (`/proc/stat`; time the hypervisor gave to
 * other machines, steal, is not counted). Per request, over a write load, it is everything a
 * request costs on this machine: the server, the database, the load generator.
 */
export function machineBusyUs(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) * 10_000;
}

/**
 * CPU time of this machine's PostgreSQL processes (its backends included), in µs; null when none
 * runs here. A backend that exits takes its time with it: compare only
 * across connections that stay open.
 */
export function databaseCpuUs(): number | null {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (!stat.includes('(postgres)')) continue;
    const fields = stat.split(') ')[1]!.split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    found = true;
  }
  return found ? total : null;
}
