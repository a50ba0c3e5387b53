// End-to-end helpers: the built CLI (`node dist/cli/main.js`) run as real child processes against
// a SQLite file in a temporary directory, and `fetch` against the servers it starts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from '../support/secrets.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(ROOT, 'dist/cli/main.js');

/** `npm test` builds first; a bare `vitest run test/e2e` builds here when dist/ is missing. */
export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
}

export interface TempStore {
  dir: string;
  databaseUrl: string;
  remove(): void;
}

export function tempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-e2e-'));
  return {
    dir,
    databaseUrl: `sqlite:${join(dir, 'slotwise.db')}`,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The environment of a child: this process's, minus settings that would leak in, plus `env`. A
 * PostgreSQL URL needs SLOTWISE_SECRET, the same in every process: the tests' own unless `env`
 * gives one. On SQLite none is given, so the processes keep the data folder's key file, as a
 * user's server does.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  // The caller's settings must not leak into the spawned process: each test states its own.
  for (const name of Object.keys(base)) {
    const ours = [
      'DATABASE_URL',
      'HOST',
      'PORT',
      'LOG_LEVEL',
      'RATE_LIMIT_PER_MINUTE',
      'NODE_OPTIONS',
      'SLOTWISE_SECRET',
    ].includes(name);
    if (ours || name.startsWith('WEBHOOK_') || name.startsWith('DATABASE_')) delete base[name];
  }
  const secret = /^postgres(ql)?:/.test(env.DATABASE_URL ?? '') ? { SLOTWISE_SECRET: TEST_SECRET } : {};
  return { ...base, ...secret, ...env };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `slotwise ARGS` to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], childEnv(env));
}

/** Runs a command (in the repository unless `cwd` says) to completion (killed after 30 s), collecting its output. */
export function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Creates a key with the CLI and returns it (stdout must be exactly the key on one line). */
export async function createKey(databaseUrl: string, holder: string, scopes = 'read,write'): Promise<string> {
  const result = await runCli(['keys', 'create', '--holder', holder, '--scopes', scopes], {
    DATABASE_URL: databaseUrl,
  });
  if (result.code !== 0) throw new Error(`keys create failed (${result.code}): ${result.stderr}`);
  const lines = result.stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '')
    throw new Error(`keys create printed more than one line: ${JSON.stringify(result.stdout)}`);
  return lines[0]!;
}

/** A free TCP port on 127.0.0.1 at the moment of asking (the server may still lose a race for it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Server {
  port: number;
  url: string;
  process: ChildProcess;
  /** Settles when the process has exited. */
  exited: Promise<ProcessExit>;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** SIGTERM, then SIGKILL if it is still running after 5 s. */
  stop(): Promise<void>;
  /** SIGKILL, and wait for the process to be gone. */
  kill(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns `slotwise serve` and waits until the port answers HTTP (any status). Retries on a fresh
 * port when the process dies first (e.g. another test took the port in between).
 */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  let lastOutput = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    let gone = false;
    const exited = new Promise<ProcessExit>((r) =>
      child.once('exit', (code, signal) => {
        gone = true;
        r({ code, signal });
      }),
    );
    const server: Server = {
      port,
      url: `http://127.0.0.1:${port}`,
      process: child,
      exited,
      output: () => output,
      async stop() {
        if (gone) return;
        child.kill('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
        if (!stopped) await server.kill();
      },
      async kill() {
        if (!gone) child.kill('SIGKILL');
        await exited;
      },
    };
    const deadline = Date.now() + 20_000;
    while (!gone && Date.now() < deadline) {
      try {
        await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
        return server;
      } catch {
        await sleep(25);
      }
    }
    lastOutput = output;
    await server.kill();
  }
  throw new Error(`slotwise serve did not answer HTTP:\n${lastOutput}`);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A JSON request against a running server; `headers` are sent too (e.g. `Slotwise-Holder`). */
export async function api(
  server: Pick<Server, 'url'>,
  token: string,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...headers,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}
