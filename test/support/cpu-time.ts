// CPU time rather than wall time for the tests that bound how long a computation may take (a
// hostile calendar must be refused quickly): the suite runs three files at once on two cores, and
// a computation that waits for the CPU has not taken longer.

/** Milliseconds of this process's CPU (user and system) since `from` (a `process.cpuUsage()`). */
export function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1_000;
}
