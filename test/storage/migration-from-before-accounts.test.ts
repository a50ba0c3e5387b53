// Issue 27: a database written by the build before accounts (bf056aa) is opened by this one. Every
// existing holder gets an account of its own, named after it, and nothing an existing client sees
// changes: every answer that build gave (recorded with the fixture, test/fixtures/before-accounts)
// is given again, field for field, on both stores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstFreeSlug } from '../../src/domain/event-type.js';
import { handleFrom } from '../../src/domain/holder.js';
import type { Server } from '../../src/server.js';
import { ensureBuilt, runCli } from '../e2e/support.js';
import { testStoreKind } from '../support/databases.js';
import { bodyOf, restoreFixture, routeOf, serveFixture, type RestoredFixture } from '../support/fixture-databases.js';
import { TestClock } from '../support/harness.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/before-accounts');

interface Fixture {
  writtenBy: string;
  recordedAt: string;
  publicBaseUrl: string;
  /** SLOTWISE_SECRET the PostgreSQL fixture was written with; SQLite's is the key file beside it. */
  secret?: string;
  keys: Array<{ label: string; holderName: string; token: string; state: 'valid' | 'expired' | 'revoked' }>;
  answers: Array<{ key: string; path: string; status: number; body: unknown }>;
  pages: Array<{ path: string; status: number }>;
  idempotentBooking: { path: string; idempotencyKey: string; body: object; status: number; response: unknown };
  bookable: { key: string; body: { start: string } & Record<string, unknown> };
}

/** What GET /me answered a holder key. */
interface Me {
  holder: { id: string; name: string; handle: string; displayName: string; calendarFeedUrl?: string };
}

/**
 * New fields an old answer may gain: contract §12 gives event types, bookings, holds and webhooks
 * a read-only `holderId`; §13 and §14 give event types `scheduleId` (null: the default schedule),
 * `assignment` and `hosts` (null for a holder's own); §15 gives them `seats` (null: one guest);
 * §16 gives event types and bookings `location` (null: none said), bookings `guestLanguage`
 * (`en`, the default), event types `notifications` (both told, the default) and `reminders` (`[]`: none),
 * calendar sources `writeBookings` (false) and `lastWriteError` (null).
 * Anything else new in an old answer fails
 * the test until it is documented and listed here.
 */
const DOCUMENTED_ADDITIONS = [
  /^GET \/api\/v1\/(event-types|bookings|holds|webhooks)(\/:id)? (data\[\]\.)?holderId$/,
  // Issue 28: the holders whose time a booking or hold occupies.
  /^GET \/api\/v1\/(bookings|holds)(\/:id)? (data\[\]\.)?hostIds$/,
  /^GET \/api\/v1\/event-types(\/:id)? (data\[\]\.)?(scheduleId|assignment|hosts|seats|location|reminders|notifications)$/,
  // §16: where a meeting takes place, null for everything stored before it.
  /^GET \/api\/v1\/bookings(\/:id)? (data\[\]\.)?(location|guestLanguage)$/,
  // §16: the write-back to the host's calendar, off (false, null) for every source stored before it.
  /^GET \/api\/v1\/calendar-sources(\/:id)? (data\[\]\.)?(writeBookings|lastWriteError)$/,
];

/** Every type a webhook heard before migration 0023, and after it, when it was every type. */
const EVERY_TYPE_BEFORE = JSON.stringify([
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'calendar_source.failed',
  'calendar_source.recovered',
]);
const EVERY_TYPE_NOW = EVERY_TYPE_BEFORE.replace('"booking.rescheduled"', '"booking.rescheduled","booking.reminder"');

/** An old answer as this build gives it: a webhook that heard every type hears `booking.reminder` too (§4, §16). */
function withReminderType(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(EVERY_TYPE_BEFORE, EVERY_TYPE_NOW));
}

/**
 * Where `now` differs from `old` (each as `path: old → now`), and which fields `now` has that `old`
 * has not (by their place in the answer, `data[].holderId`). Lists are compared item by item.
 */
function compare(old: unknown, now: unknown, at: string, shape: string, differences: string[], added: Set<string>) {
  if (Array.isArray(old)) {
    if (!Array.isArray(now) || now.length !== old.length) {
      differences.push(`${at}: ${JSON.stringify(old)} → ${JSON.stringify(now)}`);
      return;
    }
    old.forEach((item, i) => compare(item, now[i], `${at}[${i}]`, `${shape}[]`, differences, added));
    return;
  }
  if (typeof old === 'object' && old !== null) {
    if (typeof now !== 'object' || now === null || Array.isArray(now)) {
      differences.push(`${at}: ${JSON.stringify(old)} → ${JSON.stringify(now)}`);
      return;
    }
    const dot = (name: string) => (shape ? `${shape}.${name}` : name);
    for (const [name, value] of Object.entries(old))
      compare(value, (now as Record<string, unknown>)[name], `${at}.${name}`, dot(name), differences, added);
    for (const name of Object.keys(now)) if (!(name in old)) added.add(dot(name));
    return;
  }
  if (old !== now) differences.push(`${at}: ${JSON.stringify(old)} → ${JSON.stringify(now)}`);
}

describe(`a database written before accounts (bf056aa), opened by this build (${testStoreKind()})`, () => {
  const fixture = JSON.parse(readFileSync(join(FIXTURE, `answers.${testStoreKind()}.json`), 'utf8')) as Fixture;
  const tokenOf = (label: string) => fixture.keys.find((k) => k.label === label)!.token;
  let restored: RestoredFixture;
  let server: Server;
  const get = (label: string | null, path: string) =>
    server.app.inject({
      method: 'GET',
      url: path,
      headers: label === null ? {} : { authorization: `Bearer ${tokenOf(label)}` },
    });

  beforeAll(async () => {
    restored = await restoreFixture(FIXTURE, fixture.secret);
    server = await serveFixture(restored, new TestClock(Date.parse(fixture.recordedAt)), fixture.publicBaseUrl);
  });

  afterAll(async () => {
    await server?.close();
    await restored?.storage.close();
    restored?.remove();
  });

  it('when it is opened, then migration 0011 has run and every old holder has an account of its own, named after it, with a handle derived from that name', async () => {
    const migrations = await restored.query('select name from kysely_migration order by name');
    expect(migrations.map((m) => m.name)).toContain('0011_accounts');
    const holders = await restored.query(
      `select h.id, h.name, h.handle, h.account_id, a.name as account_name, a.handle as account_handle
         from holders h join accounts a on a.id = h.account_id order by h.created_at, h.id`,
    );
    const accounts = await restored.query('select id from accounts');
    const names = [...new Set(fixture.keys.map((k) => k.holderName))];
    expect(holders.map((h) => h.name)).toEqual(names);
    expect(accounts).toHaveLength(names.length);
    expect(new Set(holders.map((h) => h.account_id)).size).toBe(names.length);
    const taken = new Set<string>();
    for (const holder of holders) {
      expect(holder.account_name).toBe(holder.name);
      const handle = firstFreeSlug(handleFrom(String(holder.name)), taken);
      taken.add(handle);
      expect(holder.account_handle).toBe(handle);
    }
    // A holder's own handle, which its pages live under, is the one it had (Ada chose `ada`).
    expect(holders.map((h) => h.handle)).toEqual(['ada', 'grace-hopper', 'dr-linus-pauling']);
  });

  it('when an old key is used, then it is the same holder it was; the expired and the revoked key still answer 401 as they did', async () => {
    for (const key of fixture.keys) {
      const old = fixture.answers.find((a) => a.key === key.label && a.path === '/api/v1/me')!;
      const response = await get(key.label, '/api/v1/me');
      expect(response.statusCode, key.label).toBe(key.state === 'valid' ? 200 : 401);
      expect(response.statusCode, key.label).toBe(old.status);
      if (key.state === 'valid') expect(response.json().holder.id, key.label).toBe((old.body as Me).holder.id);
      else expect(response.json(), key.label).toEqual(old.body);
    }
  });

  it('when every GET the old build answered is asked again, then each answer is the same, field for field, and new fields are only the documented ones (holderId)', async () => {
    const differences: string[] = [];
    const added = new Set<string>();
    for (const old of fixture.answers) {
      const response = await get(old.key, old.path);
      const where = `${old.key} GET ${old.path}`;
      if (response.statusCode !== old.status)
        differences.push(`${where}: status ${old.status} → ${response.statusCode}`);
      const found = new Set<string>();
      compare(withReminderType(old.body), bodyOf(response), where, '', differences, found);
      for (const field of found) added.add(`GET ${routeOf(old.path)} ${field}`);
    }
    expect(differences).toEqual([]);
    expect([...added].filter((field) => !DOCUMENTED_ADDITIONS.some((rule) => rule.test(field)))).toEqual([]);
    expect(fixture.answers.length).toBeGreaterThan(100);
  });

  it('when the booking pages, a manage link, a calendar file and the feeds are opened, then each answers as it did, at the same handles', async () => {
    const now = [];
    for (const page of fixture.pages) now.push({ path: page.path, status: (await get(null, page.path)).statusCode });
    expect(now).toEqual(fixture.pages);
    expect(fixture.pages.filter((p) => p.status === 200).length).toBeGreaterThanOrEqual(8);
  });

  it('when the idempotent booking is sent again with its Idempotency-Key, then the old 201 is replayed and nothing is booked twice', async () => {
    const { path, idempotencyKey, body, status, response: old } = fixture.idempotentBooking;
    const response = await server.app.inject({
      method: 'POST',
      url: path,
      headers: {
        authorization: `Bearer ${tokenOf('ada')}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(old);
    const list = fixture.answers.find(
      (a) => a.key === 'ada' && /^\/api\/v1\/bookings\?from=[^&]+&to=[^&]+$/.test(a.path),
    )!;
    const ids = (body: unknown) => (body as { data: Array<{ id: string }> }).data.map((b) => b.id);
    expect(ids((await get('ada', list.path)).json())).toEqual(ids(list.body));
  });

  it('when an old key books a free time, then the booking is made (201) for its holder and the time is no longer offered', async () => {
    const { key, body } = fixture.bookable;
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/bookings',
      headers: { authorization: `Bearer ${tokenOf(key)}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode, response.body).toBe(201);
    const read = await get(key, `/api/v1/bookings/${response.json().id}`);
    expect(read.json()).toMatchObject({
      status: 'confirmed',
      ...body,
      start: new Date(body.start).toISOString(),
    });
    const slots = fixture.answers.find(
      (a) => a.key === key && a.path.startsWith(`/api/v1/slots?eventTypeId=${body.eventTypeId}&`),
    )!;
    const starts = (answer: unknown) =>
      (answer as { data: Array<{ start: string }> }).data.map((slot) => Date.parse(slot.start));
    expect(starts(slots.body)).toContain(Date.parse(body.start));
    expect(starts((await get(key, slots.path)).json())).not.toContain(Date.parse(body.start));
  });

  it('when keys create --holder names an old holder, then the new key acts for that same holder, and keys list shows every old key in its holder’s account', async () => {
    ensureBuilt();
    const env = { DATABASE_URL: restored.databaseUrl, ...(fixture.secret ? { SLOTWISE_SECRET: fixture.secret } : {}) };
    const created = await runCli(['keys', 'create', '--holder', 'Grace Hopper'], env);
    expect(created.code, created.stderr).toBe(0);
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${created.stdout.trim()}` },
    });
    const old = fixture.answers.find((a) => a.key === 'grace' && a.path === '/api/v1/me')!.body as Me;
    expect(me.statusCode).toBe(200);
    expect(me.json().holder).toEqual(old.holder);

    const listed = await runCli(['keys', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ account: string; holder: string }>;
    expect(rows).toHaveLength(fixture.keys.length + 1);
    for (const row of rows) expect(row.account).toBe(row.holder);
  });
});
