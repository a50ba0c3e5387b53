// The real server for end-to-end webhook tests: `node dist/cli/main.js serve` as a child process
// on a SQLite file in a temporary directory, plus a small JSON client and booking helpers.
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey, startServer, type ProcessExit, type Server } from './support.js';

export { CLI, createKey, ensureBuilt, freePort, ROOT } from './support.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const children = new Set<ChildProcess>();
const dirs = new Set<string>();

/** SIGKILLs every server still running and removes every temporary directory: for afterAll. */
export function cleanUpEverything(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

export interface TempDb {
  dir: string;
  databaseUrl: string;
  remove(): void;
}

export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-webhooks-'));
  dirs.add(dir);
  return {
    dir,
    databaseUrl: `sqlite:${join(dir, 'slotwise.db')}`,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
  };
}

export interface DbTemplate {
  /** The key of each holder, created with `slotwise keys create`. */
  tokens: Record<string, string>;
  /** A fresh temporary database holding the same holders and keys. */
  copy(): TempDb;
}

/**
 * A database with keys for `holders`, made once with the CLI and copied for each test: spawning
 * `keys create` for every test would cost more than the tests themselves.
 */
export async function dbTemplate(holders: string[]): Promise<DbTemplate> {
  const template = tempDb();
  const tokens: Record<string, string> = {};
  const [first, ...rest] = holders;
  tokens[first!] = await createKey(template.databaseUrl, first!);
  const made = await Promise.all(rest.map((holder) => createKey(template.databaseUrl, holder)));
  rest.forEach((holder, i) => (tokens[holder] = made[i]!));
  const file = join(template.dir, 'slotwise.db');
  return {
    tokens,
    copy() {
      const db = tempDb();
      const target = join(db.dir, 'slotwise.db');
      copyFileSync(file, target);
      if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${target}-wal`);
      return db;
    },
  };
}

/** The settings the webhook tests run with unless a test says otherwise. */
export const FAST_WEBHOOKS: Record<string, string> = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,800ms,1600ms',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '500',
};

export type Exit = ProcessExit;
export type Slotwise = Server;

/** Spawns `slotwise serve` with `FAST_WEBHOOKS` and `env`, and waits until it answers /healthz. */
export async function startSlotwise(databaseUrl: string, env: Record<string, string> = {}): Promise<Slotwise> {
  const server = await startServer(databaseUrl, { ...FAST_WEBHOOKS, ...env });
  children.add(server.process);
  void server.exited.then(() => children.delete(server.process));
  return server;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class Api {
  constructor(
    public server: Pick<Slotwise, 'url'>,
    private readonly token: string,
  ) {}

  async call<T = any>(method: string, path: string, json?: unknown): Promise<ApiResponse<T>> {
    const response = await fetch(`${this.server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }

  /** A call that must answer `status`; returns the body. */
  async expect<T = any>(status: number, method: string, path: string, json?: unknown): Promise<T> {
    const response = await this.call<T>(method, path, json);
    if (response.status !== status) {
      throw new Error(
        `${method} ${path} answered ${response.status}, expected ${status}: ${JSON.stringify(response.body)}`,
      );
    }
    return response.body;
  }
}

export interface WebhookCreated {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  webhookId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Array<{
    attempt: number;
    startedAt: string;
    durationMs: number;
    statusCode: number | null;
    error: string | null;
    responseExcerpt: string | null;
  }>;
  createdAt: string;
  updatedAt: string;
}

export interface BookingView {
  id: string;
  eventTypeId: string;
  start: string;
  end: string;
  status: string;
  [field: string]: unknown;
}

export interface Calendar {
  eventTypeId: string;
  /** The start of the index-th quarter hour from tomorrow 00:00 UTC on. */
  startAt(index: number): string;
}

/** Round-the-clock availability and a 15-minute event type, so any quarter hour from tomorrow on is bookable. */
export async function bookableCalendar(api: Api): Promise<Calendar> {
  const allDay = [{ start: '00:00', end: '24:00' }];
  await api.expect(200, 'PUT', '/availability', {
    timeZone: 'UTC',
    weekly: {
      monday: allDay,
      tuesday: allDay,
      wednesday: allDay,
      thursday: allDay,
      friday: allDay,
      saturday: allDay,
      sunday: allDay,
    },
  });
  const eventType = await api.expect<{ id: string }>(201, 'POST', '/event-types', {
    title: 'Call',
    durationMinutes: 15,
  });
  const tomorrow = new Date();
  tomorrow.setUTCHours(0, 0, 0, 0);
  const base = tomorrow.getTime() + 86_400_000;
  return { eventTypeId: eventType.id, startAt: (index) => new Date(base + index * 15 * 60_000).toISOString() };
}

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(50);
  }
}
