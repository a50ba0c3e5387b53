// Bookings of one start of a holder's event type that arrive together are decided together, in
// one transaction (BookingBatches, docs/performance.md "Issue 29, session 20"), on both stores:
// each request still gets the answer it would have had alone, and each booking its own events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  bookingInput,
  createEventType,
  decideAfterTheFirst,
  expectProblem,
  type BookingBody,
} from './helpers.js';

let h: Harness;
let key: string;
/** Write transactions begun since the test's start. */
let transactions: number;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  key = (await createApiKey(h.context, { accountName: 'acme', holderName: 'ada', scopes: ['*'], expiresAt: null }))
    .token;
  transactions = 0;
  const store = h.context.store;
  const transaction = store.transaction.bind(store);
  store.transaction = (work, scope) => {
    transactions++;
    return transaction(work, scope);
  };
});

afterEach(async () => {
  await h.close();
});

function call(method: 'GET' | 'POST' | 'PATCH', url: string, json?: unknown) {
  return h.request({ method, url: `/api/v1${url}`, token: key, ...(json === undefined ? {} : { json }) });
}

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const NO_SEAT_LEFT = 'Every seat at this start is taken.';

/** Every guest's request at once, the first decided alone and the others together, transactions counted from here; the answers in the guests' order. */
function allAtOnce(
  eventTypeId: string,
  guests: string[],
  extra: (guest: string) => Record<string, unknown> = () => ({}),
) {
  decideAfterTheFirst(h, guests.length);
  transactions = 0;
  return Promise.all(
    guests.map((guest) =>
      call(
        'POST',
        '/bookings',
        bookingInput(eventTypeId, MONDAY_10, { guestName: guest, guestEmail: `${guest}@example.com`, ...extra(guest) }),
      ),
    ),
  );
}

describe('bookings of one start that arrive together', () => {
  it('when 8 guests ask at once for the 5 seats of an occurrence, then 5 are booked, each with its own booking and event, and 3 are told no seat is left, in fewer transactions than requests', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 5 });
    const webhook = await call('POST', '/webhooks', { url: 'https://hooks.example.com/ada' });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const guests = Array.from({ length: 8 }, (_, i) => `guest${i}`);
    const answers = await allAtOnce(workshop.id, guests);

    const booked = answers.filter((answer) => answer.statusCode === 201).map((answer) => answer.json<BookingBody>());
    expect(booked).toHaveLength(5);
    // Each booked guest got their own booking: the first five to arrive, in the order they came.
    expect(booked.map((booking) => booking.guestName)).toEqual(guests.slice(0, 5));
    expect(new Set(booked.map((booking) => booking.id)).size).toBe(5);
    for (const answer of answers.filter((answer) => answer.statusCode !== 201))
      expect(expectProblem(answer, 409, 'slot-unavailable').detail).toBe(NO_SEAT_LEFT);
    // The first alone, the seven that came meanwhile together.
    expect(transactions).toBe(2);

    const created = (await h.database.rows('webhook_events'))
      .filter((event) => event.type === 'booking.created')
      .map((event) => (JSON.parse(String(event.payload)) as { data: { booking: { id: string } } }).data.booking.id);
    expect(created.sort()).toEqual(booked.map((booking) => booking.id).sort());
    expect(await h.database.rows('occupancies')).toHaveLength(5);
  });

  it('when one of those arriving together leaves out a required answer, then it alone is refused, and the others are booked', async () => {
    const workshop = await createEventType(h, key, {
      title: 'Workshop',
      seats: 5,
      questions: [{ id: 'company', label: 'Company', type: 'text', required: true }],
    });
    const answers = await allAtOnce(workshop.id, ['grace', 'alan', 'edsger', 'barbara'], (guest) =>
      guest === 'edsger' ? {} : { answers: { company: `${guest} inc` } },
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 400, 201]);
    expect(answers[2]!.json<{ errors: Array<{ field: string }> }>().errors.map((error) => error.field)).toEqual([
      'answers.company',
    ]);
    expect(answers[1]!.json<BookingBody>().answers).toEqual({ company: 'alan inc' });
    expect(await h.database.rows('bookings')).toHaveLength(3);
  });

  it('when 5 guests ask at once for one start of an event type without seats, then the first is booked and the others are refused, writing nothing', async () => {
    const call1 = await createEventType(h, key, { title: 'One to one' });
    // The first is refused for its input alone, and decided alone: the other four come together.
    const answers = await allAtOnce(call1.id, ['nobody', 'grace', 'alan', 'edsger', 'barbara'], (guest) =>
      guest === 'nobody' ? { hostId: 'hst_nobody' } : {},
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([400, 201, 409, 409, 409]);
    expect(answers[1]!.json<BookingBody>().guestName).toBe('grace');
    for (const answer of answers.slice(2)) expectProblem(answer, 409, 'slot-unavailable');
    expect(transactions).toBe(2);
    expect(await h.database.rows('bookings')).toHaveLength(1);
    expect(await h.database.rows('occupancies')).toHaveLength(1);
  });

  it('when the seats were lowered below the numbers two guests hold and 4 ask at once, then exactly the one seat left is booked', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 5 });
    const seats: BookingBody[] = [];
    for (const guest of ['a', 'b', 'c', 'd', 'e']) {
      const res = await call('POST', '/bookings', bookingInput(workshop.id, MONDAY_10, { guestName: guest }));
      expect(res.statusCode, res.body).toBe(201);
      seats.push(res.json<BookingBody>());
    }
    // The guests of numbers 1 to 3 leave: the two left hold 4 and 5, beyond the 3 seats there will be.
    const numbers = new Map((await h.database.rows('occupancies')).map((row) => [row.booking_id, Number(row.seat)]));
    for (const booking of seats.filter((booking) => numbers.get(booking.id)! <= 3))
      expect((await call('POST', `/bookings/${booking.id}/cancel`, {})).statusCode).toBe(200);
    expect((await call('PATCH', `/event-types/${workshop.id}`, { seats: 3 })).statusCode).toBe(200);

    // The four together would take three numbers for the one seat left: counted under the lock,
    // the batch is refused as a whole, and each is decided again alone.
    const [first, ...answers] = await allAtOnce(
      workshop.id,
      ['nobody', 'grace', 'alan', 'edsger', 'barbara'],
      (guest) => (guest === 'nobody' ? { hostId: 'hst_nobody' } : {}),
    );
    expect(first!.statusCode).toBe(400);
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.statusCode !== 201))
      expect(expectProblem(answer, 409, 'slot-unavailable').detail).toBe(NO_SEAT_LEFT);
    expect(await h.database.rows('occupancies')).toHaveLength(3);
  });
});
