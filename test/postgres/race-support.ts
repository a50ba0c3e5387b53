// What the race tests on PostgreSQL share: three instances on one database with an account and its
// holders, a bookable day ahead, the occupancies as stored, and the checks every race ends with
// (no 5xx, no instance error).
import pg from 'pg';
import { expect } from 'vitest';
import { api, ensureBuilt, runCli, type ApiResponse } from '../e2e/support.js';
import { createTestDatabase } from '../support/databases.js';
import { errorLines, startInstances, type Instance } from './instances.js';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Midnight (UTC) of the first Monday at least `days` days from now: default hours are Mon–Fri 09:00–17:00 UTC. */
export function mondayAhead(days: number): number {
  const from = Math.floor((Date.now() + days * DAY) / DAY) * DAY;
  const weekday = new Date(from).getUTCDay();
  return from + ((8 - weekday) % 7) * DAY;
}

export const iso = (instant: number) => new Date(instant).toISOString();

/** Every instance still running, none having logged an error. */
export function expectNoInstanceErrors(instances: readonly Instance[]): void {
  for (const instance of instances) {
    expect(instance.exited(), instance.name).toBe(false);
    expect(errorLines(instance), instance.name).toEqual([]);
  }
}

/** Every answer a 201 or a 409 `slot-unavailable`, none a 5xx. */
export function expectBookedOrRefused(answers: ApiResponse[]): void {
  for (const answer of answers) {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    if (answer.status !== 201) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect((answer.body as { type: string }).type).toBe('urn:service:problem:slot-unavailable');
    }
  }
}

/** Three `slotwise serve` processes on a new database, an account key, and holders of the account with keys of their own. */
export interface RaceField {
  db: pg.Pool;
  instances: Instance[];
  account: string;
  holders: Record<string, { id: string; key: string }>;
  close(): Promise<void>;
}

const SERVER_ENV = {
  DATABASE_POOL_SIZE: '10',
  DATABASE_STATEMENT_TIMEOUT_MS: '10000',
  RATE_LIMIT_PER_MINUTE: '0',
};

export async function raceField(holderNames: readonly string[]): Promise<RaceField> {
  ensureBuilt();
  const databaseUrl = await createTestDatabase();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const spawned: Instance[] = [];
  const close = async () => {
    await Promise.all(spawned.map((instance) => instance.stop(3_000)));
    await db.end();
  };
  const instances = await startInstances(3, databaseUrl, SERVER_ENV, spawned);
  const made = await runCli(['keys', 'create', '--account', 'acme', '--scopes', 'read,write'], {
    DATABASE_URL: databaseUrl,
  });
  expect(made.code, made.stderr).toBe(0);
  const account = made.stdout.trim();
  const holders: RaceField['holders'] = {};
  for (const name of holderNames) {
    const holder = await created(api(instances[0]!, account, 'POST', '/api/v1/holders', { name }));
    const key = (await api(instances[0]!, account, 'POST', `/api/v1/holders/${holder.id}/keys`, { scopes: ['*'] }))
      .body as { key: string };
    holders[name] = { id: holder.id, key: key.key };
  }
  return { db, instances, account, holders, close };
}

export async function created(response: Promise<ApiResponse>): Promise<{ id: string }> {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string };
}

export interface OccupancyRow {
  booking_id: string;
  holder_id: string;
  occurrence: string | null;
  seat: number | null;
  occupied_start: number;
  occupied_end: number;
}

/** The occupancies starting in [from, to), straight from the table. */
export async function occupancyRows(db: pg.Pool, from: number, to: number): Promise<OccupancyRow[]> {
  const { rows } = await db.query<OccupancyRow>(
    `select booking_id, holder_id, occurrence, seat, occupied_start::float8 as occupied_start, occupied_end::float8 as occupied_end
       from occupancies where occupied_start >= $1 and occupied_start < $2 order by holder_id, occupied_start`,
    [from, to],
  );
  return rows;
}
