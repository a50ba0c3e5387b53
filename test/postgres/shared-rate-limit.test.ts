// Issue 5 on several instances: with one PostgreSQL behind three `slotwise serve` processes, a key's
// rate limit is shared (counted in the database), and an Idempotency-Key holds across instances
// (a secret-bearing answer too: every instance has the same SLOTWISE_SECRET).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, ensureBuilt } from '../e2e/support.js';
import { createTestDatabase } from '../support/databases.js';
import { startInstances, type Instance } from './instances.js';

const LIMIT = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const spawned: Instance[] = [];
let instances: Instance[];
let databaseUrl: string;
let db: pg.Pool;
let token: string;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function send(
  instance: Instance,
  method: string,
  path: string,
  as: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${as}`,
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
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Waits for the next wall-clock minute when fewer than `needSeconds` remain in this one. */
async function roomInThisMinute(needSeconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needSeconds * 1000) await sleep(left + 250);
}

/** Weekdays at 10:00 UTC, from two days ahead: bookable under the default Mon–Fri 09–17 UTC. */
function bookableStarts(count: number): string[] {
  const day = new Date();
  day.setUTCHours(10, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + 2);
  const starts: string[] = [];
  while (starts.length < count) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) starts.push(day.toISOString());
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return starts;
}

beforeAll(async () => {
  ensureBuilt();
  databaseUrl = await createTestDatabase();
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  token = await createKey(databaseUrl, 'shared');
  instances = await startInstances(3, databaseUrl, { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, spawned);
}, 90_000);

afterAll(async () => {
  await Promise.all(spawned.map((instance) => instance.stop()));
  await db?.end();
}, 60_000);

describe('shared rate limit', () => {
  it('when 60 requests of one key are spread over three instances in one minute, then exactly 30 are answered and the rest are 429', async () => {
    const key = await createKey(databaseUrl, 'burst');
    await roomInThisMinute(20);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => send(instances[i % instances.length]!, 'GET', '/api/v1/event-types', key)),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s >= 500),
      JSON.stringify(statuses),
    ).toEqual([]);
    expect(
      statuses.filter((s) => s !== 429),
      JSON.stringify(statuses),
    ).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    for (const limited of answers.filter((a) => a.status === 429)) {
      expect(limited.body).toMatchObject({ type: 'urn:service:problem:rate-limited', status: 429 });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    }
    // Each instance got 20 requests: with a budget per process none would have refused any. Which
    // instance refuses depends on which one's requests reach the database last (not asserted: one
    // fast instance can use the whole budget).
    // Remaining counts handed out over all instances are each of 29..0 exactly once.
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(/r=(\d+)/.exec(a.headers.get('ratelimit') ?? '')?.[1]))
      .sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    // Another key is not affected.
    expect((await send(instances[0]!, 'GET', '/api/v1/event-types', token)).status).toBe(200);
  });
});

describe('idempotency across instances', () => {
  it('when the same POST /bookings with one Idempotency-Key reaches two instances at once, then one booking is made and the answers are 201 + (replayed 201 or 409 idempotency-conflict)', async () => {
    await roomInThisMinute(15);
    const et = await send(instances[0]!, 'POST', '/api/v1/event-types', token, {
      title: 'Shared idempotency',
      durationMinutes: 30,
    });
    expect(et.status, et.text).toBe(201);
    // Subscribed, so that every booking.created is written to the outbox (counted below).
    const hook = await send(instances[0]!, 'POST', '/api/v1/webhooks', token, {
      url: 'https://hooks.example.com/slotwise',
      events: ['booking.created'],
    });
    expect(hook.status, hook.text).toBe(201);
    const rounds = 5;
    const starts = bookableStarts(rounds);
    for (let round = 0; round < rounds; round++) {
      const idempotencyKey = `race-${round}-${Date.now()}`;
      const body = {
        eventTypeId: et.body.id,
        start: starts[round],
        guestName: `Guest ${round}`,
        guestEmail: `guest${round}@example.com`,
      };
      const headers = { 'idempotency-key': idempotencyKey };
      const pair = await Promise.all([
        send(instances[round % 3]!, 'POST', '/api/v1/bookings', token, body, headers),
        send(instances[(round + 1) % 3]!, 'POST', '/api/v1/bookings', token, body, headers),
      ]);
      const context = JSON.stringify(
        pair.map((a) => [a.status, a.headers.get('idempotent-replayed'), a.body?.type ?? a.body?.id]),
      );
      const fresh = pair.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
      expect(fresh, context).toHaveLength(1);
      const other = pair.find((a) => a !== fresh[0])!;
      if (other.status === 201) {
        expect(other.headers.get('idempotent-replayed'), context).toBe('true');
        expect(other.text, context).toBe(fresh[0]!.text);
        expect(other.headers.get('location'), context).toBe(fresh[0]!.headers.get('location'));
      } else {
        expect(other.status, context).toBe(409);
        expect(other.body.type, context).toBe('urn:service:problem:idempotency-conflict');
      }
      // A third instance, afterwards, replays the one booking.
      const later = await send(instances[(round + 2) % 3]!, 'POST', '/api/v1/bookings', token, body, headers);
      expect(later.status, later.text).toBe(201);
      expect(later.headers.get('idempotent-replayed')).toBe('true');
      expect(later.text).toBe(fresh[0]!.text);
      const { rows } = await db.query('select id from bookings where start_at = $1', [Date.parse(starts[round]!)]);
      expect(rows, context).toEqual([{ id: fresh[0]!.body.id }]);
    }
    const { rows } = await db.query<{ n: string }>('select count(*) as n from bookings');
    expect(Number(rows[0]!.n)).toBe(rounds);
    // The outbox records every booking.created event: one per booking, none doubled.
    const events = await db.query<{ type: string }>(`select type from webhook_events`);
    expect(events.rows).toEqual(Array.from({ length: rounds }, () => ({ type: 'booking.created' })));
  });
  it('when a webhook is registered under an Idempotency-Key on one instance, then the others replay its secret (one SLOTWISE_SECRET), and the stored row holds it encrypted', async () => {
    await roomInThisMinute(10);
    const headers = { 'idempotency-key': `webhook-${Date.now()}` };
    const body = { url: 'https://hooks.example.com/shared-secret' };
    const created = await send(instances[0]!, 'POST', '/api/v1/webhooks', token, body, headers);
    expect(created.status, created.text).toBe(201);
    const secret = created.body.secret as string;
    for (const instance of instances.slice(1)) {
      const replayed = await send(instance, 'POST', '/api/v1/webhooks', token, body, headers);
      expect(replayed.status, replayed.text).toBe(201);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.text).toBe(created.text);
    }
    const { rows } = await db.query<{ response_body: string }>(
      'select response_body from idempotency_keys where key = $1',
      [headers['idempotency-key']],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.response_body).toMatch(/^s1\./);
    expect(rows[0]!.response_body).not.toContain(secret);
  });
});
