// Issue 4, "the same service, on many instances": three real `slotwise serve` processes on one
// PostgreSQL database, raced over HTTP. Double booking must be impossible across processes, the
// key CLI must work against PostgreSQL, each webhook attempt must be made by one instance, and a
// killed instance's claimed deliveries must be sent by the others once its lease runs out.
import { migrations as schemaMigrations } from '../../src/storage/migrations/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDER_HEADER } from '../../src/http/auth.js';
import { api, createKey, ensureBuilt, runCli, type ApiResponse } from '../e2e/support.js';
import { createTestDatabase } from '../support/databases.js';
import { HookReceiver } from './hook-receiver.js';
import { errorLines, startInstances, type Instance } from './instances.js';

const MIN = 60_000;
const DAY = 86_400_000;
const SLOT_UNAVAILABLE = 'urn:service:problem:slot-unavailable';
const INVALID_STATE = 'urn:service:problem:invalid-state';
/** WEBHOOK_TIMEOUT_MS; the lease is this plus 5 s (src/cli/main.ts). */
const WEBHOOK_TIMEOUT_MS = 5_000;
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 5_000;
/**
 * The test database's deadlock_timeout: a lock cycle's victim waits this long before PostgreSQL
 * looks for the cycle, far above a loaded run's slowest booking, so the races' bound on it (below
 * this) tells a deadlock from a slow machine (at PostgreSQL's default of 1 s the two looked alike).
 */
const DEADLOCK_TIMEOUT_MS = 5_000;

const SERVER_ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
  WEBHOOK_POLL_INTERVAL_MS: '100',
  DATABASE_POOL_SIZE: '10',
  DATABASE_STATEMENT_TIMEOUT_MS: '10000',
  // The races send hundreds of requests with one key within a minute.
  RATE_LIMIT_PER_MINUTE: '0',
};

const spawned: Instance[] = [];
const receivers: HookReceiver[] = [];
let databaseUrl: string;
let db: pg.Pool;
let a: Instance;
let b: Instance;
let c: Instance;
let instances: Instance[];
let alice: string;
/** 30 minutes, no buffers, 30-minute grid. */
let plainId: string;
/** 30 minutes, 10 minutes of buffer either side, 5-minute grid. */
let bufferedId: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const iso = (ms: number) => new Date(ms).toISOString();

/** Midnight UTC `days` from today: far enough ahead to be bookable, on every grid used here. */
function dayAhead(days: number): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY;
}

function guest(i: number) {
  return { guestName: `Guest ${i}`, guestEmail: `guest${i}@example.com` };
}

const roundRobin = (i: number) => instances[i % instances.length]!;

function summary(responses: ApiResponse[]): string {
  return JSON.stringify(responses.map((r) => [r.status, r.body?.type ?? r.body?.id ?? r.body]));
}

function expectNo5xx(responses: ApiResponse[]): void {
  expect(
    responses.filter((r) => r.status >= 500),
    summary(responses),
  ).toEqual([]);
}

/**
 * Bookings of one event type (occupying `before` + duration + `after` around each start) raced:
 * every answer is 201 or 409 slot-unavailable, and every refusal collides with a winner.
 */
function expectOnlyCreatedOrTaken(
  responses: ApiResponse[],
  starts: number[],
  before: number,
  after: number,
  duration: number,
): void {
  expectNo5xx(responses);
  const occupied = responses.flatMap((r, i) =>
    r.status === 201 ? [{ from: starts[i]! - before, to: starts[i]! + duration + after }] : [],
  );
  expect(occupied.length, summary(responses)).toBeGreaterThanOrEqual(1);
  for (const [i, r] of responses.entries()) {
    if (r.status === 201) continue;
    expectProblem(r, 409, [SLOT_UNAVAILABLE], summary(responses));
    const from = starts[i]! - before;
    const to = starts[i]! + duration + after;
    expect(
      occupied.some((o) => o.from < to && from < o.to),
      `${iso(starts[i]!)} refused without a collision`,
    ).toBe(true);
  }
}

function expectProblem(response: ApiResponse, status: number, types: string[], context: string): void {
  expect(response.status, context).toBe(status);
  expect(response.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  expect(types, context).toContain(response.body.type);
}

/**
 * How long another instance may go on serving what was changed: it hears changes by a poll every
 * 100 ms and relies on an answer for 500 ms, so some 600 ms idle and more on a loaded machine;
 * a change not heard is served for ever, which is what these bounds are to catch.
 */
const HEARD_WITHIN_MS = 3_000;

/**
 * Asks `instance` with `token` (and `headers`) until it refuses (or HEARD_WITHIN_MS have passed
 * since `since`), as a client using the key would: the first answer that is not 200.
 */
async function firstRefusal(
  instance: Instance,
  token: string,
  since: number,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  for (;;) {
    const response = await api(instance, token, 'GET', '/api/v1/event-types', undefined, headers);
    if (response.status !== 200 || performance.now() - since > HEARD_WITHIN_MS) return response;
    await sleep(2);
  }
}

/**
 * Waits until the instance hears other instances' commits (its change poll answering, as
 * /metrics says), then serves `token` (with `headers`) once, so that a revocation test starts
 * from a cached key (and holder).
 */
async function servedWhileListening(
  instance: Instance,
  token: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!/^slotwise_change_signal_hearing 1$/m.test(await (await fetch(`${instance.url}/metrics`)).text())) {
    if (Date.now() > deadline) throw new Error(`${instance.name}'s change poll never answered`);
    await sleep(20);
  }
  expect((await api(instance, token, 'GET', '/api/v1/event-types', undefined, headers)).status).toBe(200);
}

async function holderId(name: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>('select id from holders where name = $1', [name]);
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

/**
 * Straight from the tables: no two confirmed bookings of one holder overlap, buffers included,
 * and each confirmed booking occupies exactly its hosts' time.
 */
async function expectNoOverlapInDatabase(): Promise<void> {
  const { rows } = await db.query(`
    select x.id as first, y.id as second
    from bookings x join bookings y
      on x.holder_id = y.holder_id and x.id < y.id
     and x.occupied_start < y.occupied_end and y.occupied_start < x.occupied_end
    where x.status = 'confirmed' and y.status = 'confirmed'`);
  expect(rows).toEqual([]);
  const unoccupied = await db.query(`
    select b.id from bookings b
    where b.status = 'confirmed' and not exists (
      select 1 from occupancies o
      where o.booking_id = b.id and o.holder_id = b.holder_id
        and o.occupied_start = b.occupied_start and o.occupied_end = b.occupied_end)`);
  expect(unoccupied.rows).toEqual([]);
}

/** Open around the clock, every day, in UTC. */
async function openAroundTheClock(token: string, via: Instance): Promise<void> {
  const allDay = [{ start: '00:00', end: '24:00' }];
  const response = await api(via, token, 'PUT', '/api/v1/availability', {
    timeZone: 'UTC',
    weekly: Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
    ),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function createEventType(token: string, via: Instance, body: Record<string, unknown>): Promise<string> {
  const response = await api(via, token, 'POST', '/api/v1/event-types', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function createWebhook(token: string, via: Instance, url: string): Promise<string> {
  const response = await api(via, token, 'POST', '/api/v1/webhooks', { url, events: ['booking.created'] });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  claimed_until: string | null;
}

async function deliveriesOf(webhookId: string): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    'select id, event_id, status, attempts, claimed_until from webhook_deliveries where webhook_id = $1 order by id',
    [webhookId],
  );
  return rows;
}

/** Polls until `count` deliveries of the webhook exist and all have succeeded. */
async function waitUntilAllSucceeded(webhookId: string, count: number, timeoutMs: number): Promise<DeliveryRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveriesOf(webhookId);
    if (rows.length === count && rows.every((r) => r.status === 'succeeded')) return rows;
    if (Date.now() > deadline) {
      throw new Error(
        `deliveries not all succeeded after ${timeoutMs} ms: ${JSON.stringify(rows.map((r) => [r.status, r.attempts]))}`,
      );
    }
    await sleep(100);
  }
}

/** Deadlocks PostgreSQL has detected in the test database so far. */
async function deadlocks(): Promise<number> {
  const { rows } = await db.query<{ deadlocks: string }>(
    'select deadlocks from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]!.deadlocks);
}

async function eventIdsOf(holder: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select id from webhook_events where holder_id = $1 and type = 'booking.created' order by id`,
    [holder],
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  ensureBuilt();
  databaseUrl = await createTestDatabase();
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  // Before any instance connects: the setting applies to sessions opened after it.
  const { rows } = await db.query<{ name: string }>('select current_database() as name');
  await db.query(`alter database ${rows[0]!.name} set deadlock_timeout = '${DEADLOCK_TIMEOUT_MS}ms'`);
  // Three processes at the same moment on an empty database: all of them race to migrate it.
  instances = await startInstances(3, databaseUrl, SERVER_ENV, spawned);
  [a, b, c] = instances as [Instance, Instance, Instance];

  alice = await createKey(databaseUrl, 'alice');
  await openAroundTheClock(alice, a);
  plainId = await createEventType(alice, b, { title: 'Plain call', durationMinutes: 30 });
  bufferedId = await createEventType(alice, c, {
    title: 'Buffered call',
    durationMinutes: 30,
    slotIntervalMinutes: 5,
    bufferBeforeMinutes: 10,
    bufferAfterMinutes: 10,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(spawned.map((instance) => instance.stop(3_000)));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await db?.end();
}, 30_000);

describe('three server processes on one PostgreSQL database', () => {
  it('when three instances start at the same moment on an empty database, then all come up and the schema is migrated once', async () => {
    for (const instance of instances) expect(instance.exited(), `${instance.name}:\n${instance.output()}`).toBe(false);
    const migrations = await db.query<{ name: string }>('select name from kysely_migration order by name');
    expect(migrations.rows.map((r) => r.name)).toEqual(Object.keys(schemaMigrations('postgres')).sort());
    const constraints = await db.query(
      `select conname from pg_constraint where conname = 'occupancies_no_overlap' and conrelid = 'occupancies'::regclass`,
    );
    expect(constraints.rows).toHaveLength(1);
    const extensions = await db.query(`select extname from pg_extension where extname = 'btree_gist'`);
    expect(extensions.rows).toHaveLength(1);
    // Every instance serves the same data straight away.
    for (const instance of instances) {
      const response = await api(instance, alice, 'GET', '/api/v1/event-types');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.map((e: { id: string }) => e.id).sort()).toEqual([plainId, bufferedId].sort());
    }
    for (const instance of instances) expect(errorLines(instance), instance.name).toEqual([]);
  });

  it('when a key is created, listed and revoked with the CLI against PostgreSQL, then every instance refuses it at the next request', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--holder', 'alice', '--scopes', 'read'], env);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    const keyId = /Created key (\S+) for holder "alice"/.exec(created.stderr)?.[1];
    expect(keyId, created.stderr).toBeDefined();

    const listed = await runCli(['keys', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as Array<{
      id: string;
      holder: string;
      scopes: string[];
      revokedAt: string | null;
    }>;
    expect(keys.filter((k) => k.holder === 'alice')).toHaveLength(2);
    expect(keys.find((k) => k.id === keyId)).toMatchObject({ holder: 'alice', scopes: ['read'], revokedAt: null });
    const table = await runCli(['keys', 'list'], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${keyId}\\s+alice\\s+alice\\s+read\\s`, 'm'));

    // In use on every instance first, so nothing can pass by not having seen the key yet.
    for (const instance of instances)
      expect((await api(instance, token, 'GET', '/api/v1/event-types')).status).toBe(200);

    const revoked = await runCli(['keys', 'revoke', keyId!], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const revokedAt = performance.now();
    for (const instance of instances) {
      const response = await firstRefusal(instance, token, revokedAt);
      expectProblem(
        response,
        401,
        ['urn:service:problem:unauthorized'],
        `${instance.name}: ${JSON.stringify(response.body)}`,
      );
      // The other key of the same holder is untouched.
      expect((await api(instance, alice, 'GET', '/api/v1/event-types')).status).toBe(200);
    }
    const after = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout) as Array<{
      id: string;
      revokedAt: string | null;
    }>;
    expect(after.find((k) => k.id === keyId)?.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const again = await runCli(['keys', 'revoke', keyId!], env);
    expect(again.code).toBe(1);
  });

  it('when a key is revoked with the CLI while every instance serves it, then each refuses it within a second, with its change poll connected or cut off', async () => {
    const env = { DATABASE_URL: databaseUrl };
    for (const poll of ['connected', 'cut off'] as const) {
      const token = await createKey(databaseUrl, 'alice', 'read');
      const keyId = (await db.query<{ id: string }>('select id from api_keys order by created_at desc limit 1'))
        .rows[0]!.id;
      // Served, and so cached, on every instance (each hearing changes) before it is revoked.
      for (const instance of instances) await servedWhileListening(instance, token);
      if (poll === 'cut off') {
        const { rows } = await db.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = 'slotwise-change-poll' and datname = current_database()`,
        );
        expect(rows).toHaveLength(instances.length);
      }
      const revoked = await runCli(['keys', 'revoke', keyId], env);
      expect(revoked.code, revoked.stderr).toBe(0);
      const revokedAt = performance.now();
      const latencies = await Promise.all(
        instances.map(async (instance) => {
          const response = await firstRefusal(instance, token, revokedAt);
          expect(response.status, `${instance.name} (poll ${poll})`).toBe(401);
          return Math.round(performance.now() - revokedAt);
        }),
      );
      console.log(
        `revocation seen by each instance (poll ${poll}) within ${latencies.join(', ')} ms of the CLI's exit`,
      );
    }
  });

  it('when an account key acting for a holder through Slotwise-Holder is revoked with the CLI while every instance serves it, then each refuses it (401) within a second, and the holder’s own key still works', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'acme', '--scopes', 'read'], env);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    const keyId = /Created account key (\S+) for account "acme"/.exec(created.stderr)?.[1];
    expect(keyId, created.stderr).toBeDefined();
    const holderKey = await runCli(['keys', 'create', '--account', 'acme', '--holder', 'ada', '--scopes', 'read'], env);
    expect(holderKey.code, holderKey.stderr).toBe(0);
    const acting = { [HOLDER_HEADER]: await holderId('ada') };
    // The key and the holder served, and so cached, on every instance (each hearing changes).
    for (const instance of instances) await servedWhileListening(instance, token, acting);

    const revoked = await runCli(['keys', 'revoke', keyId!], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const revokedAt = performance.now();
    const latencies = await Promise.all(
      instances.map(async (instance) => {
        const response = await firstRefusal(instance, token, revokedAt, acting);
        expectProblem(
          response,
          401,
          ['urn:service:problem:unauthorized'],
          `${instance.name}: ${JSON.stringify(response.body)}`,
        );
        return Math.round(performance.now() - revokedAt);
      }),
    );
    console.log(
      `account key acting for a holder: revocation seen by each instance within ${latencies.join(', ')} ms of the CLI's exit`,
    );
    for (const instance of instances)
      expect((await api(instance, holderKey.stdout.trim(), 'GET', '/api/v1/event-types')).status).toBe(200);
  });

  it('when a holder key issued by API is revoked by API on one instance, then that instance refuses it at its next request and every other within a second', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'initech', '--scopes', 'read,write'], env);
    expect(created.code, created.stderr).toBe(0);
    const accountKey = created.stdout.trim();
    const holder = await api(a, accountKey, 'POST', '/api/v1/holders', { name: 'Peter' });
    expect(holder.status).toBe(201);
    const holderPath = `/api/v1/holders/${(holder.body as { id: string }).id}`;
    const issued = await api(a, accountKey, 'POST', `${holderPath}/keys`, { scopes: ['read'] });
    expect(issued.status).toBe(201);
    const { id: keyId, key: token } = issued.body as { id: string; key: string };
    for (const instance of instances) await servedWhileListening(instance, token);

    const revoked = await api(a, accountKey, 'DELETE', `${holderPath}/keys/${keyId}`);
    expect(revoked.status).toBe(204);
    const revokedAt = performance.now();
    // The instance that revoked it knew at its commit, before answering.
    expect((await api(a, token, 'GET', '/api/v1/event-types')).status).toBe(401);
    const latencies = await Promise.all(
      [b, c].map(async (instance) => {
        const response = await firstRefusal(instance, token, revokedAt);
        expect(response.status, instance.name).toBe(401);
        return Math.round(performance.now() - revokedAt);
      }),
    );
    console.log(
      `key revoked by API on ${a.name}: refused by the others within ${latencies.join(', ')} ms of the answer`,
    );
  });

  it('when a holder is deleted by API on one instance, then its key, its Slotwise-Holder and its booking page are refused on every instance within a second', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'hooli', '--scopes', 'read,write'], env);
    expect(created.code, created.stderr).toBe(0);
    const accountKey = created.stdout.trim();
    const holder = await api(a, accountKey, 'POST', '/api/v1/holders', { name: 'Gavin', handle: 'gavin-belson' });
    expect(holder.status).toBe(201);
    const id = (holder.body as { id: string }).id;
    const issued = await api(a, accountKey, 'POST', `/api/v1/holders/${id}/keys`, { scopes: ['read'] });
    const token = (issued.body as { key: string }).key;
    const acting = { [HOLDER_HEADER]: id };
    const type = await api(
      a,
      accountKey,
      'POST',
      '/api/v1/event-types',
      { title: 'Intro', durationMinutes: 30, public: true },
      acting,
    );
    expect(type.status).toBe(201);
    for (const instance of instances) {
      await servedWhileListening(instance, token);
      await servedWhileListening(instance, accountKey, acting);
      expect((await fetch(`${instance.url}/book/gavin-belson`)).status).toBe(200);
    }

    expect((await api(b, accountKey, 'DELETE', `/api/v1/holders/${id}`)).status).toBe(204);
    const deletedAt = performance.now();
    const latencies = await Promise.all(
      instances.map(async (instance) => {
        const key = await firstRefusal(instance, token, deletedAt);
        expect(key.status, instance.name).toBe(401);
        const header = await firstRefusal(instance, accountKey, deletedAt, acting);
        expect(header.status, instance.name).toBe(404);
        expect((await fetch(`${instance.url}/book/gavin-belson`)).status, instance.name).toBe(404);
        return Math.round(performance.now() - deletedAt);
      }),
    );
    console.log(
      `holder deleted by API on ${b.name}: key 401, header 404 and page 404 everywhere within ${latencies.join(', ')} ms`,
    );
  });

  it('when a holder an account key acts for is marked deleted while every instance serves the key for it, then each answers 404 for that Slotwise-Holder within a second, and the key still acts for the account’s other holders', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'globex', '--scopes', 'read'], env);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    for (const holder of ['bea', 'cal']) {
      const made = await runCli(['keys', 'create', '--account', 'globex', '--holder', holder, '--scopes', 'read'], env);
      expect(made.code, made.stderr).toBe(0);
    }
    const bea = { [HOLDER_HEADER]: await holderId('bea') };
    const cal = { [HOLDER_HEADER]: await holderId('cal') };
    for (const instance of instances) await servedWhileListening(instance, token, bea);

    // As deleting a holder marks it (the deletion route is another change's).
    const { rowCount } = await db.query('update holders set deleted_at = $1 where id = $2', [
      Date.now(),
      bea[HOLDER_HEADER],
    ]);
    expect(rowCount).toBe(1);
    const deletedAt = performance.now();
    const latencies = await Promise.all(
      instances.map(async (instance) => {
        const response = await firstRefusal(instance, token, deletedAt, bea);
        expectProblem(
          response,
          404,
          ['urn:service:problem:not-found'],
          `${instance.name}: ${JSON.stringify(response.body)}`,
        );
        return Math.round(performance.now() - deletedAt);
      }),
    );
    console.log(`holder marked deleted: 404 from each instance within ${latencies.join(', ')} ms of the update`);
    for (const instance of instances)
      expect((await api(instance, token, 'GET', '/api/v1/event-types', undefined, cal)).status).toBe(200);
  });

  it('when a team event type is changed on one instance, then the others hear it as a change of its account within a second: an account key they keep in memory is read again, as a cache of team types by account would be', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'dunder-mifflin', '--scopes', 'read,write'], env);
    expect(created.code, created.stderr).toBe(0);
    const accountKey = created.stdout.trim();
    const holder = await api(a, accountKey, 'POST', '/api/v1/holders', { name: 'Milton' });
    expect(holder.status).toBe(201);
    const hostId = holder.body.id as string;
    const teamId = await createEventType(accountKey, a, {
      title: 'Staplers',
      durationMinutes: 30,
      assignment: 'collective',
      hosts: [{ holderId: hostId }],
    });
    // A change of a holder (not of its account) that needs the key's write scope.
    const rename = (instance: Instance, displayName: string) =>
      api(instance, accountKey, 'PATCH', `/api/v1/holders/${hostId}`, { displayName });
    // Every instance has heard the creation (a change of the account) and read the key again.
    await sleep(1_000);
    for (const instance of instances) {
      await servedWhileListening(instance, accountKey);
      expect((await rename(instance, 'warm')).status, instance.name).toBe(200);
    }

    // The key loses its write scope where no trigger marks its account changed: every instance
    // keeps the key it read, a holder's change does not make it read it again…
    const client = await db.connect();
    try {
      await client.query('set session_replication_role = replica');
      const { rowCount } = await client.query(
        `update api_keys set scopes = 'read'
         where holder_id is null and account_id = (select id from accounts where name = 'dunder-mifflin')`,
      );
      expect(rowCount).toBe(1);
    } finally {
      await client.query('reset session_replication_role');
      client.release();
    }
    for (const instance of instances) expect((await rename(instance, 'kept')).status, instance.name).toBe(200);

    // …a team event type's change does: on the instance that made it at once, on the others within a second.
    const patched = await api(a, accountKey, 'PATCH', `/api/v1/event-types/${teamId}`, { description: 'Changed on a' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const changedAt = performance.now();
    const latencies = await Promise.all(
      instances.map(async (instance) => {
        for (;;) {
          const response = await rename(instance, 'refused?');
          if (response.status !== 200 || performance.now() - changedAt > HEARD_WITHIN_MS) {
            expectProblem(response, 403, ['urn:service:problem:forbidden'], `${instance.name}: ${response.status}`);
            return Math.round(performance.now() - changedAt);
          }
          await sleep(2);
        }
      }),
    );
    console.log(
      `team event type changed on ${a.name}: its account's key read again everywhere within ${latencies.join(', ')} ms`,
    );
  });

  it('when a team event type changes on one instance, or one of its hosts is booked on another, then every instance’s team slots follow within a second', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const created = await runCli(['keys', 'create', '--account', 'chotchkies', '--scopes', 'read,write'], env);
    expect(created.code, created.stderr).toBe(0);
    const accountKey = created.stdout.trim();
    const hostIds: string[] = [];
    for (const name of ['Joanna', 'Stan']) {
      const holder = await api(a, accountKey, 'POST', '/api/v1/holders', { name });
      expect(holder.status, JSON.stringify(holder.body)).toBe(201);
      hostIds.push(holder.body.id as string);
    }
    const asHost = (hostId: string) => ({ [HOLDER_HEADER]: hostId });
    for (const hostId of hostIds) {
      const allDay = [{ start: '00:00', end: '24:00' }];
      const weekly = Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]),
      );
      const put = await api(a, accountKey, 'PUT', '/api/v1/availability', { timeZone: 'UTC', weekly }, asHost(hostId));
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
    const teamId = await createEventType(accountKey, a, {
      title: 'TPS review',
      durationMinutes: 30,
      assignment: 'collective',
      hosts: hostIds.map((holderId) => ({ holderId })),
    });
    const joannasOwn = (
      await api(
        a,
        accountKey,
        'POST',
        '/api/v1/event-types',
        { title: 'Own', durationMinutes: 30 },
        asHost(hostIds[0]!),
      )
    ).body.id as string;
    const day = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 7 * 86_400_000).toISOString();
    const dayEnd = new Date(Date.parse(day) + 86_400_000).toISOString();
    const startsOn = async (instance: Instance) => {
      const response = await api(
        instance,
        accountKey,
        'GET',
        `/api/v1/slots?eventTypeId=${teamId}&from=${encodeURIComponent(day)}&to=${encodeURIComponent(dayEnd)}`,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body.data as Array<{ start: string; end: string }>).map((slot) => slot);
    };
    /** How long until `holds` is true of every instance's answer (at most HEARD_WITHIN_MS each). */
    const untilEverywhere = (holds: (slots: Array<{ start: string; end: string }>) => boolean) =>
      Promise.all(
        instances.map(async (instance) => {
          const since = performance.now();
          for (;;) {
            const slots = await startsOn(instance);
            if (holds(slots)) return Math.round(performance.now() - since);
            expect(performance.now() - since, `${instance.name} still answers from before`).toBeLessThan(
              HEARD_WITHIN_MS,
            );
            await sleep(5);
          }
        }),
      );
    await sleep(1_000);
    for (const instance of instances) expect(await startsOn(instance)).toHaveLength(48);

    // The team type's duration changes on a: every instance's answer has hour-long slots.
    const patched = await api(a, accountKey, 'PATCH', `/api/v1/event-types/${teamId}`, { durationMinutes: 60 });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const afterPatch = await untilEverywhere(
      (slots) => slots.length === 24 && Date.parse(slots[0]!.end) - Date.parse(slots[0]!.start) === 3_600_000,
    );

    // A host is booked for an event type of its own on b: the hour is gone for the team everywhere.
    const booked = await api(
      b,
      accountKey,
      'POST',
      '/api/v1/bookings',
      { eventTypeId: joannasOwn, start: day, guestName: 'Bill', guestEmail: 'bill@example.com' },
      asHost(hostIds[0]!),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const afterBooking = await untilEverywhere((slots) => slots.length === 23 && slots[0]!.start !== day);
    console.log(
      `team slots: a team type's change heard everywhere within ${afterPatch.join(', ')} ms, a host's booking within ${afterBooking.join(', ')} ms`,
    );
  });

  it('when 90 bookings for one start arrive at once spread over three instances, then exactly one is created and the rest are 409 slot-unavailable', async () => {
    const start = dayAhead(3) + 10 * 60 * MIN;
    const responses = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        api(roundRobin(i), alice, 'POST', '/api/v1/bookings', { eventTypeId: plainId, start: iso(start), ...guest(i) }),
      ),
    );
    expectNo5xx(responses);
    const winners = responses.filter((r) => r.status === 201);
    expect(winners, summary(responses)).toHaveLength(1);
    for (const loser of responses.filter((r) => r.status !== 201))
      expectProblem(loser, 409, [SLOT_UNAVAILABLE], summary(responses));

    const { rows } = await db.query(`select id, status from bookings where holder_id = $1 and start_at = $2`, [
      await holderId('alice'),
      start,
    ]);
    expect(rows).toEqual([{ id: winners[0]!.body.id, status: 'confirmed' }]);
    await expectNoOverlapInDatabase();
  });

  it('when 90 bookings with buffers at random starts in a 2-hour window race across three instances, then no two confirmed bookings overlap, buffers included', async () => {
    const window = dayAhead(4) + 10 * 60 * MIN;
    // 24 grid starts, 50 minutes occupied each: almost every pair collides.
    const starts = Array.from({ length: 90 }, () => window + Math.floor(Math.random() * 24) * 5 * MIN);
    const responses = await Promise.all(
      starts.map((start, i) =>
        api(roundRobin(i), alice, 'POST', '/api/v1/bookings', {
          eventTypeId: bufferedId,
          start: iso(start),
          ...guest(i),
        }),
      ),
    );
    expectNo5xx(responses);
    for (const r of responses) {
      if (r.status !== 201) expectProblem(r, 409, [SLOT_UNAVAILABLE], summary(responses));
    }
    const created = responses.filter((r) => r.status === 201).map((r) => r.body.id as string);
    expect(created.length).toBeGreaterThanOrEqual(1);

    const { rows } = await db.query<{
      id: string;
      start_at: string;
      end_at: string;
      occupied_start: string;
      occupied_end: string;
    }>(
      `select id, start_at, end_at, occupied_start, occupied_end from bookings
       where holder_id = $1 and event_type_id = $2 and status = 'confirmed' order by occupied_start`,
      [await holderId('alice'), bufferedId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...created].sort());
    const occupied = rows.map((r) => ({
      id: r.id,
      start: Number(r.start_at),
      from: Number(r.occupied_start),
      to: Number(r.occupied_end),
    }));
    for (const [i, r] of rows.entries()) {
      expect(Number(r.end_at) - Number(r.start_at)).toBe(30 * MIN);
      expect(occupied[i]!.from).toBe(Number(r.start_at) - 10 * MIN);
      expect(occupied[i]!.to).toBe(Number(r.end_at) + 10 * MIN);
    }
    for (let i = 1; i < occupied.length; i++) {
      expect(
        occupied[i]!.from,
        `${iso(occupied[i - 1]!.start)} and ${iso(occupied[i]!.start)} overlap`,
      ).toBeGreaterThanOrEqual(occupied[i - 1]!.to);
    }
    // Nothing was refused without a reason: every losing start collides with a winner.
    for (const [i, r] of responses.entries()) {
      if (r.status !== 409) continue;
      const from = starts[i]! - 10 * MIN;
      const to = starts[i]! + 40 * MIN;
      expect(
        occupied.some((o) => o.from < to && from < o.to),
        `${iso(starts[i]!)} refused without a collision`,
      ).toBe(true);
    }
    await expectNoOverlapInDatabase();
  });

  it('when 24 bookings 30 minutes apart with a 10-minute after-buffer race across three instances, round after round, then every answer is 201 or 409 and none waits on a lock cycle', async () => {
    // Neighbours conflict only through the buffer: each insert meets the one before and the one
    // after it in the exclusion constraint, the shape that once made PostgreSQL deadlock.
    const afterBufferedId = await createEventType(alice, a, {
      title: 'After-buffered call',
      durationMinutes: 30,
      bufferAfterMinutes: 10,
    });
    const deadlocksBefore = await deadlocks();
    for (let round = 0; round < 8; round++) {
      const day = dayAhead(10 + round);
      const starts = Array.from({ length: 24 }, (_, i) => day + 8 * 60 * MIN + i * 30 * MIN);
      const timed = await Promise.all(
        starts.map(async (start, i) => {
          const began = performance.now();
          const response = await api(roundRobin(i + round), alice, 'POST', '/api/v1/bookings', {
            eventTypeId: afterBufferedId,
            start: iso(start),
            ...guest(i),
          });
          return { response, ms: performance.now() - began };
        }),
      );
      const responses = timed.map((t) => t.response);
      expectOnlyCreatedOrTaken(responses, starts, 0, 10 * MIN, 30 * MIN);
      // A deadlock costs its victim the database's deadlock_timeout (5 s) and a retry; a loaded
      // run's slowest booking takes a fraction of that.
      expect(Math.max(...timed.map((t) => t.ms)), `round ${round}`).toBeLessThan(3_000);
    }
    // Counted by PostgreSQL too (as far as the sessions have reported it yet), whatever the timing.
    expect(await deadlocks(), 'deadlocks detected').toBe(deadlocksBefore);
    await expectNoOverlapInDatabase();
    for (const instance of instances) expect(errorLines(instance), instance.name).toEqual([]);
  }, 60_000);

  it('when two event types with different buffers are booked at once, four requests per start over three instances, then every answer is 201 or 409 and none waits on a lock cycle', async () => {
    const bufferedQuarterId = await createEventType(alice, b, {
      title: 'Quarter-buffered call',
      durationMinutes: 30,
      slotIntervalMinutes: 15,
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 15,
    });
    const deadlocksBefore = await deadlocks();
    for (let round = 0; round < 4; round++) {
      const day = dayAhead(20 + round);
      const requests: Array<{ eventTypeId: string; start: number; before: number; after: number }> = [];
      for (let start = day + 13 * 60 * MIN; start <= day + 15.5 * 60 * MIN; start += 15 * MIN) {
        for (let k = 0; k < 4; k++) {
          requests.push({ eventTypeId: bufferedQuarterId, start, before: 15 * MIN, after: 15 * MIN });
          if ((start - day) % (30 * MIN) === 0) requests.push({ eventTypeId: plainId, start, before: 0, after: 0 });
        }
      }
      expect(requests).toHaveLength(68);
      const timed = await Promise.all(
        requests.map(async ({ eventTypeId, start }, i) => {
          const began = performance.now();
          const response = await api(roundRobin(i), alice, 'POST', '/api/v1/bookings', {
            eventTypeId,
            start: iso(start),
            ...guest(i),
          });
          return { response, ms: performance.now() - began };
        }),
      );
      const responses = timed.map((t) => t.response);
      expectNo5xx(responses);
      for (const r of responses) if (r.status !== 201) expectProblem(r, 409, [SLOT_UNAVAILABLE], summary(responses));
      expect(responses.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
      // A deadlock costs its victim the database's deadlock_timeout (5 s) and a retry.
      expect(Math.max(...timed.map((t) => t.ms)), `round ${round}`).toBeLessThan(3_000);
    }
    expect(await deadlocks(), 'deadlocks detected').toBe(deadlocksBefore);
    await expectNoOverlapInDatabase();
    for (const instance of instances) expect(errorLines(instance), instance.name).toEqual([]);
  }, 60_000);

  it('when six bookings are rescheduled at once into the same new time across instances, then exactly one move succeeds', async () => {
    const day = dayAhead(5);
    const ids: string[] = [];
    for (let k = 0; k < 6; k++) {
      const response = await api(roundRobin(k), alice, 'POST', '/api/v1/bookings', {
        eventTypeId: plainId,
        start: iso(day + (9 + k) * 60 * MIN),
        ...guest(k),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      ids.push(response.body.id);
    }
    const target = day + 18 * 60 * MIN;
    // Three requests per booking, each booking's three on three different instances.
    const requests = Array.from({ length: 18 }, (_, i) => ({
      bookingId: ids[i % 6]!,
      via: instances[Math.floor(i / 6) % 3]!,
    }));
    const responses = await Promise.all(
      requests.map(({ bookingId, via }, i) =>
        api(via, alice, 'POST', `/api/v1/bookings/${bookingId}/reschedule`, {
          start: iso(target),
          reason: `attempt ${i}`,
        }),
      ),
    );
    expectNo5xx(responses);
    const winners = responses.filter((r) => r.status === 201);
    expect(winners, summary(responses)).toHaveLength(1);
    const winner = winners[0]!;
    expect(winner.body.start).toBe(iso(target));
    const moved = winner.body.rescheduledFromId as string;
    expect(ids).toContain(moved);
    for (const [i, r] of responses.entries()) {
      if (r === winner) continue;
      // The moved booking's other requests find it moved (or, at worst, the time taken); the
      // other bookings are still confirmed and can only have lost the time.
      const types = requests[i]!.bookingId === moved ? [INVALID_STATE, SLOT_UNAVAILABLE] : [SLOT_UNAVAILABLE];
      expectProblem(r, 409, types, summary(responses));
    }

    const { rows } = await db.query<{
      id: string;
      status: string;
      start_at: string;
      rescheduled_from_id: string | null;
      rescheduled_to_id: string | null;
    }>(
      `select id, status, start_at, rescheduled_from_id, rescheduled_to_id from bookings
       where id = any($1) or rescheduled_from_id = any($1) order by start_at, id`,
      [ids],
    );
    expect(rows.filter((r) => r.rescheduled_from_id !== null).map((r) => r.id)).toEqual([winner.body.id]);
    for (const [k, id] of ids.entries()) {
      const row = rows.find((r) => r.id === id)!;
      if (id === moved) expect(row).toMatchObject({ status: 'rescheduled', rescheduled_to_id: winner.body.id });
      else
        expect(row).toMatchObject({
          status: 'confirmed',
          rescheduled_to_id: null,
          start_at: String(day + (9 + k) * 60 * MIN),
        });
    }
    expect(rows.find((r) => r.id === winner.body.id)).toMatchObject({
      status: 'confirmed',
      rescheduled_from_id: moved,
      start_at: String(target),
    });
    await expectNoOverlapInDatabase();
  });

  it('when each of five bookings is rescheduled at once to six different times across instances, then each moves exactly once', async () => {
    const day = dayAhead(6);
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) {
      const response = await api(roundRobin(k), alice, 'POST', '/api/v1/bookings', {
        eventTypeId: plainId,
        start: iso(day + (6 + k) * 60 * MIN),
        ...guest(k),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      ids.push(response.body.id);
    }
    // 30 distinct free half-hours from 12:00 on; request i goes to instance i mod 3, so the six
    // requests for one booking are spread over all three.
    const requests = Array.from({ length: 30 }, (_, i) => ({ k: i % 5, start: day + 12 * 60 * MIN + i * 30 * MIN }));
    const responses = await Promise.all(
      requests.map(({ k, start }, i) =>
        api(roundRobin(i), alice, 'POST', `/api/v1/bookings/${ids[k]}/reschedule`, { start: iso(start) }),
      ),
    );
    expectNo5xx(responses);
    for (const [k, oldId] of ids.entries()) {
      const mine = responses.filter((_, i) => requests[i]!.k === k);
      const winners = mine.filter((r) => r.status === 201);
      expect(winners, summary(mine)).toHaveLength(1);
      for (const loser of mine.filter((r) => r.status !== 201))
        expectProblem(loser, 409, [INVALID_STATE, SLOT_UNAVAILABLE], summary(mine));
      const winner = winners[0]!;
      expect(winner.body.rescheduledFromId).toBe(oldId);

      // Never two new bookings from one old one.
      const successors = await db.query<{ id: string; status: string; start_at: string }>(
        'select id, status, start_at from bookings where rescheduled_from_id = $1',
        [oldId],
      );
      expect(successors.rows).toEqual([
        { id: winner.body.id, status: 'confirmed', start_at: String(Date.parse(winner.body.start)) },
      ]);
      const old = await db.query('select status, rescheduled_to_id from bookings where id = $1', [oldId]);
      expect(old.rows).toEqual([{ status: 'rescheduled', rescheduled_to_id: winner.body.id }]);
    }
    await expectNoOverlapInDatabase();
  });

  it('when 30 bookings enqueue webhook events while three instances poll the outbox, then the receiver sees each webhook-id exactly once', async () => {
    const carol = await createKey(databaseUrl, 'carol');
    await openAroundTheClock(carol, c);
    const eventTypeId = await createEventType(carol, a, { title: 'Carol call', durationMinutes: 30 });
    const receiver = await HookReceiver.start();
    receivers.push(receiver);
    const webhookId = await createWebhook(carol, b, receiver.url);

    const day = dayAhead(3);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api(roundRobin(i), carol, 'POST', '/api/v1/bookings', {
          eventTypeId,
          start: iso(day + i * 30 * MIN),
          ...guest(i),
        }),
      ),
    );
    expect(
      responses.map((r) => r.status),
      summary(responses),
    ).toEqual(Array(30).fill(201));

    await waitUntilAllSucceeded(webhookId, 30, 15_000);
    // Ten more poll intervals for any second attempt to show up.
    await sleep(1_000);
    const eventIds = await eventIdsOf(await holderId('carol'));
    expect(eventIds).toHaveLength(30);
    const seen = receiver.requests.map((r) => r.webhookId);
    expect(seen.length, JSON.stringify(seen)).toBe(30);
    expect([...seen].sort()).toEqual(eventIds);
    expect(receiver.requests.every((r) => r.status === 200 && !r.abandoned)).toBe(true);

    const attempts = await db.query<{ delivery_id: string; n: string }>(
      `select d.id as delivery_id, count(a.attempt) as n from webhook_deliveries d
       left join webhook_delivery_attempts a on a.delivery_id = d.id
       where d.webhook_id = $1 group by d.id`,
      [webhookId],
    );
    expect(attempts.rows.map((r) => Number(r.n))).toEqual(Array(30).fill(1));
    const listed = await api(c, carol, 'GET', `/api/v1/webhooks/${webhookId}/deliveries?limit=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(30);
    for (const delivery of listed.body.data) {
      expect(delivery).toMatchObject({
        status: 'succeeded',
        attemptCount: 1,
        attempts: [{ attempt: 1, statusCode: 200 }],
      });
    }
  }, 30_000);

  it('when an instance is SIGKILLed while it holds claimed deliveries, then the other instances deliver them after the lease', async () => {
    const bob = await createKey(databaseUrl, 'bob');
    await openAroundTheClock(bob, a);
    const eventTypeId = await createEventType(bob, a, { title: 'Bob call', durationMinutes: 30 });
    const receiver = await HookReceiver.start();
    receivers.push(receiver);
    // Below WEBHOOK_TIMEOUT_MS: an attempt A gave up on would be recorded as failed and retried
    // on its schedule, which may come before A's lease ends (the lease only guards attempts in flight).
    receiver.delayMs = 3_000;
    const webhookId = await createWebhook(bob, a, receiver.url);

    // Four events through A only (A takes at most four attempts per webhook at once); its worker
    // is woken by each commit, B and C only poll.
    const day = dayAhead(3);
    for (let i = 0; i < 4; i++) {
      const response = await api(a, bob, 'POST', '/api/v1/bookings', {
        eventTypeId,
        start: iso(day + i * 60 * MIN),
        ...guest(i),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    await receiver.waitForRequests(4, 2_500);
    const claimed = await deliveriesOf(webhookId);
    expect(claimed).toHaveLength(4);
    for (const row of claimed) {
      expect(row.status).toBe('pending');
      expect(row.claimed_until).not.toBeNull();
    }
    const leaseOf = new Map(claimed.map((r) => [r.event_id, Number(r.claimed_until)]));
    // Every attempt is still waiting for its answer.
    expect(receiver.requests.every((r) => r.answeredAt === null)).toBe(true);

    await a.kill();
    receiver.delayMs = 0;

    const delivered = await waitUntilAllSucceeded(webhookId, 4, LEASE_MS + 8_000);
    expect(delivered.every((r) => r.claimed_until === null)).toBe(true);

    // A's attempts died with it: the receiver saw their connections close unanswered.
    const abandoned = receiver.requests.filter((r) => r.abandoned);
    expect(abandoned.length, JSON.stringify(receiver.requests)).toBeGreaterThanOrEqual(1);
    const eventIds = await eventIdsOf(await holderId('bob'));
    expect(eventIds.sort()).toEqual([...leaseOf.keys()].sort());
    for (const eventId of eventIds) {
      const answered = receiver.requests.filter((r) => r.webhookId === eventId && r.status === 200);
      expect(answered, `${eventId}: ${JSON.stringify(receiver.requests)}`).toHaveLength(1);
    }
    // Nobody sent A's deliveries again while A's lease held; the pollers took them soon after.
    for (const lost of abandoned) {
      const retry = receiver.requests.find((r) => r.webhookId === lost.webhookId && r.status === 200)!;
      const lease = leaseOf.get(lost.webhookId)!;
      expect(retry.at).toBeGreaterThanOrEqual(lease);
      expect(retry.at).toBeLessThan(lease + 3_000);
    }

    const listed = await api(b, bob, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((d: { status: string }) => d.status)).toEqual(Array(4).fill('succeeded'));
    for (const delivery of listed.body.data) {
      expect(delivery.attemptCount).toBe(delivery.attempts.length);
      expect(delivery.attempts.at(-1)).toMatchObject({ attempt: delivery.attemptCount, statusCode: 200 });
    }
    for (const instance of [b, c]) {
      expect(instance.exited()).toBe(false);
      expect(errorLines(instance), instance.name).toEqual([]);
    }
  }, 40_000);
});
