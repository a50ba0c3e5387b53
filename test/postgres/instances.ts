// Several `slotwise serve` processes on one PostgreSQL database, spawned at the same moment.
// Unlike test/e2e/support.ts `startServer`, a process that dies is never restarted: a lost
// migration race must fail the test, not be hidden by a retry. Each process listens on PORT=0
// and the test reads the port from its "Server listening at" log line, so no port can be lost to
// another test in between.
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, CLI, ROOT } from '../e2e/support.js';

export interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  exited(): boolean;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolved once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function spawnInstance(
  name: string,
  databaseUrl: string,
  env: Record<string, string>,
): { instance: Instance; ready: Promise<void> } {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd: ROOT,
    // info: the listen line carries the port; request logs are the price. childEnv gives every
    // instance the tests' SLOTWISE_SECRET (contract §8), so what one encrypts another opens.
    env: childEnv({ DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const instance: Instance = {
    name,
    url: '',
    process: child,
    output: () => output,
    exited: () => exited,
    async kill() {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    async stop(graceMs = 5_000) {
      if (exited) return;
      child.kill('SIGTERM');
      if (!(await Promise.race([exit.then(() => true), sleep(graceMs).then(() => false)]))) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start listening in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: string) => {
      output += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match && instance.url === '') {
        instance.url = match[1]!;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before listening:\n${output}`));
    });
  });
  return { instance, ready };
}

/**
 * Spawns `count` servers in one synchronous loop (as close to "the same moment" as processes get)
 * and waits until each listens and answers /healthz. Every spawned process is in `spawned`, even
 * when starting fails, so the caller can kill them all.
 */
export async function startInstances(
  count: number,
  databaseUrl: string,
  env: Record<string, string>,
  spawned: Instance[],
): Promise<Instance[]> {
  const started = Array.from({ length: count }, (_, i) => spawnInstance(String.fromCharCode(65 + i), databaseUrl, env));
  spawned.push(...started.map((s) => s.instance));
  await Promise.all(started.map((s) => s.ready));
  for (const { instance } of started) {
    const response = await fetch(`${instance.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    if (response.status >= 500)
      throw new Error(`${instance.name} /healthz answered ${response.status}:\n${instance.output()}`);
  }
  return started.map((s) => s.instance);
}

/** Log lines at pino level error (50) or fatal (60). */
export function errorLines(instance: Instance): string[] {
  return instance
    .output()
    .split('\n')
    .filter((line) => /"level":(?:50|60)\b/.test(line));
}
