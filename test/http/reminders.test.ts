// Contract §16, reminders, on both stores: `reminders` on holder and team event types (made,
// changed, read; every bad input a 400 on `reminders` with nothing written); the due rows a booking
// gets when made or moved and loses when cancelled or moved away; the reminder worker writing
// `booking.reminder` at `start − minutesBefore` and not before, delivered to a real receiver;
// rows that survive a restart; two instances sending each reminder once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { composeServer, type Server } from '../../src/server.js';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/webhook-receiver.js';
import { ReminderWorker } from '../../src/worker/reminder-worker.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

interface ReminderEvent {
  type: string;
  timestamp: string;
  data: { booking: BookingBody & { hostIds: string[] }; minutesBefore: number };
}

const MONDAY_9 = '2026-01-05T09:00:00.000Z';

let h: Harness;
let token: string;
let others: Array<{ server: Server; storage: Storage }> = [];
let receiver: Receiver | undefined;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY, allowPrivateWebhookTargets: true });
  token = await h.key('alice');
});

afterEach(async () => {
  for (const other of others) {
    await other.server.close();
    await other.storage.close();
  }
  others = [];
  await h.close();
  await receiver?.close();
  receiver = undefined;
});

const eventTypeWith = (reminders: number[], fields: Record<string, unknown> = {}) =>
  createEventType(h, token, { reminders: reminders.map((minutesBefore) => ({ minutesBefore })), ...fields });

const at = (iso: string) => h.clock.set(iso);

/** The `booking.reminder` events written to the outbox so far, oldest first. */
async function reminderEvents(): Promise<ReminderEvent[]> {
  const rows = await h.database.rows('webhook_events');
  return rows
    .filter((row) => row.type === 'booking.reminder')
    .sort((a, b) => Number(a.created_at) - Number(b.created_at))
    .map((row) => JSON.parse(String(row.payload)) as ReminderEvent);
}

/** `[bookingId, minutesBefore]` of each reminder still to be sent, sorted. */
async function dueRows(): Promise<Array<[string, number, string]>> {
  const rows = await h.database.rows('booking_reminders');
  return rows
    .map((row): [string, number, string] => [
      String(row.booking_id),
      Number(row.minutes_before),
      new Date(Number(row.due_at)).toISOString(),
    ])
    .sort((a, b) => a[2].localeCompare(b[2]) || a[0].localeCompare(b[0]));
}

/** Registers a webhook without `events` (every type), to `url` or a public address nothing is sent to. */
async function webhook(url = 'https://hooks.example.com/slotwise', as = token): Promise<string> {
  const res = await h.request({ method: 'POST', url: '/api/v1/webhooks', token: as, json: { url } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** A second instance on the same database, over a connection of its own. */
async function anotherInstance(): Promise<Server> {
  const storage = await openStorage(parseDatabaseUrl(h.database.databaseUrl), {
    poolSize: 2,
    statementTimeoutMs: 10_000,
  });
  const server = await composeServer(storage, h.settings);
  others.push({ server, storage });
  return server;
}

describe('reminders on event types', () => {
  it('when an event type is made without reminders, then it has none; when made or changed with some, then it reads them back as sent', async () => {
    const plain = await createEventType(h, token);
    expect((plain as EventTypeBody & { reminders: unknown }).reminders).toEqual([]);
    const reminded = await eventTypeWith([1440, 60, 5, 10080, 30]);
    const get = await h.request({ method: 'GET', url: `/api/v1/event-types/${reminded.id}`, token });
    expect(get.json().reminders).toEqual([1440, 60, 5, 10080, 30].map((minutesBefore) => ({ minutesBefore })));
    const patched = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${plain.id}`,
      token,
      json: { reminders: [{ minutesBefore: 15 }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().reminders).toEqual([{ minutesBefore: 15 }]);
    const cleared = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${plain.id}`,
      token,
      json: { reminders: [] },
    });
    expect(cleared.json().reminders).toEqual([]);
  });

  it.each([
    ['six reminders', [5, 10, 15, 20, 25, 30].map((minutesBefore) => ({ minutesBefore })), ['reminders']],
    ['the same offset twice', [{ minutesBefore: 60 }, { minutesBefore: 60 }], ['reminders']],
    ['an offset under 5 minutes', [{ minutesBefore: 4 }], ['reminders[0].minutesBefore']],
    ['an offset over a week', [{ minutesBefore: 60 }, { minutesBefore: 10081 }], ['reminders[1].minutesBefore']],
    ['an offset that is no whole minute', [{ minutesBefore: 7.5 }], ['reminders[0].minutesBefore']],
    ['a reminder without minutesBefore', [{}], ['reminders[0].minutesBefore']],
    ['a reminder with an unknown field', [{ minutesBefore: 60, channel: 'sms' }], ['reminders[0].channel']],
    ['a number instead of a reminder', [60], ['reminders[0]']],
  ])(
    'when an event type is made or changed with %s, then 400 on that field and nothing is written',
    async (_, reminders, fields) => {
      const created = await h.request({
        method: 'POST',
        url: '/api/v1/event-types',
        token,
        json: { title: 'Intro', durationMinutes: 30, reminders },
      });
      expectInvalid(created, fields);
      const list = await h.request({ method: 'GET', url: '/api/v1/event-types', token });
      expect(list.json().data).toEqual([]);
      const et = await eventTypeWith([60]);
      expectInvalid(
        await h.request({ method: 'PATCH', url: `/api/v1/event-types/${et.id}`, token, json: { reminders } }),
        fields,
      );
      const after = await h.request({ method: 'GET', url: `/api/v1/event-types/${et.id}`, token });
      expect(after.json().reminders).toEqual([{ minutesBefore: 60 }]);
    },
  );

  it('when a team event type is made and changed with reminders, then it reads them back, and bad ones are a 400 on reminders', async () => {
    const acme = (
      await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null })
    ).token;
    const ada = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: 'ada',
      scopes: ['*'],
      expiresAt: null,
    });
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: acme,
      json: {
        title: 'Team intro',
        durationMinutes: 30,
        assignment: 'collective',
        hosts: [{ holderId: ada.key.holderId }],
        reminders: [{ minutesBefore: 120 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().reminders).toEqual([{ minutesBefore: 120 }]);
    const id = created.json().id as string;
    const duplicate = [{ minutesBefore: 30 }, { minutesBefore: 30 }];
    expectInvalid(
      await h.request({
        method: 'PATCH',
        url: `/api/v1/event-types/${id}`,
        token: acme,
        json: { reminders: duplicate },
      }),
      ['reminders'],
    );
    const changed = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${id}`,
      token: acme,
      json: { reminders: [{ minutesBefore: 30 }] },
    });
    expect(changed.json().reminders).toEqual([{ minutesBefore: 30 }]);
  });
});

describe('sending reminders', () => {
  it('when a reminder falls due, then booking.reminder reaches the webhook with the booking (links included) and minutesBefore, and not a moment before', async () => {
    receiver = await Receiver.start();
    await webhook(receiver.url);
    const et = await eventTypeWith([60, 1440]);
    const booking = await book(h, token, et.id, MONDAY_9);

    at('2026-01-04T08:59:59.999Z');
    expect(await h.server.reminders.runRound()).toBe(0);
    expect(await reminderEvents()).toEqual([]);

    at('2026-01-04T09:00:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(1);
    h.server.worker.start();
    // booking.created and this reminder, in either order.
    const reminders = async (count: number) =>
      (await receiver!.waitFor(count))
        .map((request) => JSON.parse(request.body) as ReminderEvent)
        .filter((event) => event.type === 'booking.reminder');
    const [sent] = await reminders(2);
    expect(sent!.timestamp).toBe('2026-01-04T09:00:00.000Z');
    expect(sent!.data.minutesBefore).toBe(1440);
    expect(sent!.data.booking).toMatchObject({ id: booking.id, start: MONDAY_9, status: 'confirmed' });
    expect(sent!.data.booking.manageUrl).toEqual(expect.any(String));
    expect(sent!.data.booking.icsUrl).toEqual(expect.any(String));
    expect(await dueRows()).toEqual([[booking.id, 60, '2026-01-05T08:00:00.000Z']]);

    // The attempts are recorded before the clock jumps a day (past their claims' lease).
    await expect
      .poll(async () => (await h.database.rows('webhook_deliveries')).map((d) => d.status))
      .toEqual(['succeeded', 'succeeded']);
    at('2026-01-05T08:00:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(1);
    const second = (await reminders(3))[1]!;
    expect(receiver.requests).toHaveLength(3);
    expect(second.data).toMatchObject({ minutesBefore: 60, booking: { id: booking.id } });
    expect(await dueRows()).toEqual([]);
    // Sent once each: further rounds find nothing.
    at('2026-01-05T10:00:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(0);
    expect((await reminderEvents()).map((e) => e.data.minutesBefore)).toEqual([1440, 60]);
  });

  it('when a booking is made after a reminder’s time, then that reminder is never sent and the later one is', async () => {
    await webhook();
    const et = await eventTypeWith([60, 15]);
    at('2026-01-05T08:30:00.000Z');
    const booking = await book(h, token, et.id, MONDAY_9);
    expect(await dueRows()).toEqual([[booking.id, 15, '2026-01-05T08:45:00.000Z']]);
    expect(await h.server.reminders.runRound()).toBe(0);
    at('2026-01-05T08:45:00.000Z');
    await h.server.reminders.runRound();
    expect((await reminderEvents()).map((e) => e.data.minutesBefore)).toEqual([15]);
  });

  it('when a booking is cancelled before its reminders, then none is sent', async () => {
    await webhook();
    const et = await eventTypeWith([60, 1440]);
    const booking = await book(h, token, et.id, MONDAY_9);
    const cancelled = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/cancel`,
      token,
      json: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await dueRows()).toEqual([]);
    at('2026-01-05T08:30:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(0);
    expect(await reminderEvents()).toEqual([]);
  });

  it('when a booking is cancelled after its first reminder, then only that one was sent', async () => {
    await webhook();
    const et = await eventTypeWith([60, 1440]);
    const booking = await book(h, token, et.id, MONDAY_9);
    at('2026-01-04T12:00:00.000Z');
    await h.server.reminders.runRound();
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token, json: {} });
    at('2026-01-05T08:30:00.000Z');
    await h.server.reminders.runRound();
    expect((await reminderEvents()).map((e) => e.data.minutesBefore)).toEqual([1440]);
  });

  it('when a booking is rescheduled, then its reminders move to the new booking at the new time, with the event type’s reminders as they are now', async () => {
    await webhook();
    const et = await eventTypeWith([60]);
    const booking = await book(h, token, et.id, MONDAY_9);
    await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${et.id}`,
      token,
      json: { reminders: [{ minutesBefore: 30 }] },
    });
    // The booking keeps the reminders it was made with until it moves.
    expect(await dueRows()).toEqual([[booking.id, 60, '2026-01-05T08:00:00.000Z']]);
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/reschedule`,
      token,
      json: { start: '2026-01-05T11:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const newId = moved.json<BookingBody>().id;
    expect(await dueRows()).toEqual([[newId, 30, '2026-01-05T10:30:00.000Z']]);
    at('2026-01-05T08:00:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(0);
    at('2026-01-05T10:30:00.000Z');
    await h.server.reminders.runRound();
    const events = await reminderEvents();
    expect(events.map((e) => [e.data.booking.id, e.data.booking.start, e.data.minutesBefore])).toEqual([
      [newId, '2026-01-05T11:00:00.000Z', 30],
    ]);
  });

  it('when every seat of a time is booked, then each seat’s guest has its own reminder', async () => {
    await webhook();
    const et = await eventTypeWith([60], { seats: 3 });
    const first = await book(h, token, et.id, MONDAY_9);
    const second = await book(h, token, et.id, MONDAY_9, { guestEmail: 'grace@example.com' });
    at('2026-01-05T08:00:00.000Z');
    await h.server.reminders.runRound();
    const events = await reminderEvents();
    expect(events.map((e) => e.data.booking.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('when a team booking’s reminder falls due, then the account’s webhook and each host’s hear it', async () => {
    const acme = (
      await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null })
    ).token;
    const ada = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: 'ada',
      scopes: ['*'],
      expiresAt: null,
    });
    const accountWebhook = await webhook('https://hooks.example.com/acme', acme);
    const adaWebhook = await webhook('https://hooks.example.com/ada', ada.token);
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: acme,
      json: {
        title: 'Team intro',
        durationMinutes: 30,
        assignment: 'collective',
        hosts: [{ holderId: ada.key.holderId }],
        reminders: [{ minutesBefore: 60 }],
      },
    });
    const booking = await book(h, acme, created.json().id, MONDAY_9);
    at('2026-01-05T08:00:00.000Z');
    await h.server.reminders.runRound();
    const events = await reminderEvents();
    expect(events.map((e) => [e.data.booking.id, e.data.booking.hostIds, e.data.minutesBefore])).toEqual([
      [booking.id, [ada.key.holderId], 60],
    ]);
    const deliveries = await h.database.rows('webhook_deliveries');
    expect(deliveries.map((d) => d.webhook_id).sort()).toEqual(
      // booking.created and booking.reminder, each to both webhooks.
      [accountWebhook, accountWebhook, adaWebhook, adaWebhook].sort(),
    );
  });

  it('when the server restarts before a reminder is due, then a new server on the same database sends it', async () => {
    await webhook();
    const et = await eventTypeWith([60]);
    const booking = await book(h, token, et.id, MONDAY_9);
    await h.server.reminders.stop();
    const restarted = await anotherInstance();
    at('2026-01-05T08:00:00.000Z');
    expect(await restarted.reminders.runRound()).toBe(1);
    expect((await reminderEvents()).map((e) => [e.data.booking.id, e.data.minutesBefore])).toEqual([[booking.id, 60]]);
  });

  it('when no instance ran at a reminder’s time, then the first round after sends it late while the booking is ahead, and drops it once the booking has started', async () => {
    await webhook();
    const et = await eventTypeWith([60, 1440]);
    const booking = await book(h, token, et.id, MONDAY_9);
    at('2026-01-05T08:30:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(2);
    // The day-before one, late; the hour-before one, half an hour late: both while the booking is ahead.
    expect((await reminderEvents()).map((e) => e.data.minutesBefore).sort((a, b) => a - b)).toEqual([60, 1440]);
    const later = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    expect((await dueRows()).map(([id, minutes]) => [id, minutes])).toEqual([[later.id, 60]]);
    at('2026-01-05T10:00:00.000Z');
    expect(await h.server.reminders.runRound()).toBe(1);
    expect(await dueRows()).toEqual([]);
    expect((await reminderEvents()).map((e) => e.data.booking.id)).toEqual([booking.id, booking.id]);
  });

  it('when two instances look for the same due reminders at once, then each reminder is sent once', async () => {
    await webhook();
    const et = await eventTypeWith([1440, 2880, 4320], { durationMinutes: 15 });
    const bookings: BookingBody[] = [];
    for (let minute = 0; minute < 8 * 60; minute += 15)
      bookings.push(await book(h, token, et.id, Date.parse(MONDAY_9) + minute * 60_000));
    const other = await anotherInstance();
    at('2026-01-05T08:00:00.000Z');
    await Promise.all([h.server.reminders.runRound(), other.reminders.runRound(), h.server.reminders.runRound()]);
    const sent = (await reminderEvents()).map((e) => `${e.data.booking.id} ${e.data.minutesBefore}`);
    expect(sent).toHaveLength(bookings.length * 3);
    expect(new Set(sent).size).toBe(sent.length);
    expect(await dueRows()).toEqual([]);
  });
});

describe('what a reminder’s transaction also writes (the seam of the reminder e-mail)', () => {
  it('when alsoOnReminder fails, then neither its write, the event nor the removal is kept, and the next round sends the reminder once with all three', async () => {
    await webhook();
    const et = await eventTypeWith([60]);
    const booking = await book(h, token, et.id, MONDAY_9);
    const metadata = async () =>
      (await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token })).json<BookingBody>().metadata;
    const told: Array<[string, number, number]> = [];
    const warnings: string[] = [];
    let failNext = true;
    const worker = new ReminderWorker(
      h.context,
      {
        intervalMs: 60_000,
        batchSize: 10,
        maxBatchesPerRound: 1,
        alsoOnReminder: async (tx, _events, { booking: reminded, minutesBefore, now }) => {
          // A write of the same transaction: kept exactly when the reminder's event is.
          const marked = { ...reminded, metadata: { remindedAt: String(now) }, updatedAt: now };
          expect(await tx.bookings.update(marked, 'confirmed')).toBe(true);
          if (failNext) {
            failNext = false;
            throw new Error('the e-mail could not be written');
          }
          told.push([reminded.id, minutesBefore, now]);
        },
      },
      { warn: (_object, message) => warnings.push(message), error: () => {} },
    );
    at('2026-01-05T08:00:00.000Z');
    await worker.runRound();
    expect(warnings).toEqual(['sending due reminders failed; the next round tries again']);
    expect(await reminderEvents()).toEqual([]);
    expect(await dueRows()).toEqual([[booking.id, 60, '2026-01-05T08:00:00.000Z']]);
    expect(await metadata()).toEqual({});
    await worker.runRound();
    expect(told).toEqual([[booking.id, 60, Date.parse('2026-01-05T08:00:00.000Z')]]);
    expect((await reminderEvents()).map((e) => [e.data.booking.id, e.data.minutesBefore])).toEqual([[booking.id, 60]]);
    expect(await dueRows()).toEqual([]);
    expect(await metadata()).toEqual({ remindedAt: String(Date.parse('2026-01-05T08:00:00.000Z')) });
  });
});
