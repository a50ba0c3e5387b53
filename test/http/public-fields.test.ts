// Contract §10, the API's side, on both stores: the holder's public profile (handle, display
// name, calendar feed link), event types' `public`, `questions` and `bookingPageUrl`, bookings'
// `answers`, `metadata`, `source` and the guest's links, which only keys that may write see and
// which no stored record holds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { payloadAsSent } from '../../src/app/outbox.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

interface MeBody {
  holder: { id: string; name: string; handle: string; displayName: string; calendarFeedUrl?: string };
  key: { id: string };
}

interface QuestionBody {
  id: string;
  label: string;
  type: string;
  required: boolean;
  options: string[] | null;
}

type PublicEventTypeBody = EventTypeBody & {
  public: boolean;
  questions: QuestionBody[];
  bookingPageUrl: string | null;
};

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('Dr. Ada Lovelace');
});

afterEach(async () => {
  await h.close();
});

const me = (key = token) => h.request({ method: 'GET', url: '/api/v1/me', token: key });
const patchMe = (json: unknown, key = token) => h.request({ method: 'PATCH', url: '/api/v1/me', token: key, json });

describe('the holder profile: GET and PATCH /api/v1/me', () => {
  it('when a holder is created, then its handle is derived from its name and its display name is the name', async () => {
    const body = (await me()).json<MeBody>();
    expect(body.holder).toMatchObject({
      name: 'Dr. Ada Lovelace',
      handle: 'dr-ada-lovelace',
      displayName: 'Dr. Ada Lovelace',
    });
  });

  it('when two names make the same handle, then the second gets a numeric suffix', async () => {
    const other = await h.key('dr ada   lovelace!');
    expect((await me(other)).json<MeBody>().holder.handle).toBe('dr-ada-lovelace-2');
    const nothingUsable = await h.key('☃☃');
    expect((await me(nothingUsable)).json<MeBody>().holder.handle).toBe('holder');
  });

  it('when the key may write, then the calendar feed link is shown; a read key does not see it', async () => {
    const feed = (await me()).json<MeBody>().holder.calendarFeedUrl;
    expect(feed).toMatch(/^http:\/\/localhost\/feeds\/hdr_[a-z0-9]+\.0\.[A-Za-z0-9_-]{43}\.ics$/);
    const reader = await h.key('Dr. Ada Lovelace', ['read']);
    expect((await me(reader)).json<MeBody>().holder).not.toHaveProperty('calendarFeedUrl');
  });

  it('when PATCH sets a handle and a display name, then both are shown, and null shows the name again', async () => {
    const res = await patchMe({ handle: 'ada', displayName: 'Ada L.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MeBody>().holder).toMatchObject({ handle: 'ada', displayName: 'Ada L.' });
    expect((await me()).json<MeBody>().holder).toMatchObject({ handle: 'ada', displayName: 'Ada L.' });
    expect((await patchMe({ displayName: null })).json<MeBody>().holder.displayName).toBe('Dr. Ada Lovelace');
  });

  it('when the handle is another holder’s, then 409 conflict names it and nothing changes', async () => {
    const bob = await h.key('bob');
    const taken = expectProblem(await patchMe({ handle: 'bob', displayName: 'Someone' }), 409, 'conflict');
    expect(taken.errors).toEqual([{ field: 'handle', message: 'is taken' }]);
    expect((await me()).json<MeBody>().holder).toMatchObject({
      handle: 'dr-ada-lovelace',
      displayName: 'Dr. Ada Lovelace',
    });
    // Its own handle again is no conflict.
    expect((await patchMe({ handle: 'bob' }, bob)).statusCode).toBe(200);
  });

  it('when the body does not validate, then 400 names each field', async () => {
    expectInvalid(await patchMe({ handle: 'Ada Lovelace', displayName: '' }), ['handle', 'displayName']);
    expectInvalid(await patchMe({ handle: 'x'.repeat(65) }), ['handle']);
    expectInvalid(await patchMe({ name: 'x' }), ['name']);
  });

  it('when a read key patches, then 403', async () => {
    const reader = await h.key('Dr. Ada Lovelace', ['read']);
    expectProblem(await patchMe({ displayName: 'x' }, reader), 403, 'forbidden');
  });

  it('when the feed link is rotated, then a new one is shown and the ring no longer opens the old one', async () => {
    const before = (await me()).json<MeBody>().holder.calendarFeedUrl!;
    const res = await h.request({ method: 'POST', url: '/api/v1/me/calendar-feed/rotate', token });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<MeBody>().holder.calendarFeedUrl!;
    expect(after).not.toBe(before);
    expect(after).toMatch(/\.1\.[A-Za-z0-9_-]{43}\.ics$/);
    expect((await me()).json<MeBody>().holder.calendarFeedUrl).toBe(after);
  });
});

describe('event types: public, questions, bookingPageUrl', () => {
  it('when created without them, then it is not public, asks nothing and has no booking page', async () => {
    const et = (await createEventType(h, token)) as PublicEventTypeBody;
    expect(et).toMatchObject({ public: false, questions: [], bookingPageUrl: null });
  });

  it('when made public, then bookingPageUrl is the page under the holder’s handle, and follows a new handle', async () => {
    const et = (await createEventType(h, token, { title: 'Intro call', public: true })) as PublicEventTypeBody;
    expect(et.bookingPageUrl).toBe('http://localhost/book/dr-ada-lovelace/intro-call');
    await patchMe({ handle: 'ada' });
    const fetched = (
      await h.request({ method: 'GET', url: `/api/v1/event-types/${et.id}`, token })
    ).json<PublicEventTypeBody>();
    expect(fetched.bookingPageUrl).toBe('http://localhost/book/ada/intro-call');
    const hidden = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${et.id}`,
      token,
      json: { public: false },
    });
    expect(hidden.json<PublicEventTypeBody>().bookingPageUrl).toBeNull();
  });

  it('when questions are sent, then they are kept in order with required false and options null by default', async () => {
    const et = (await createEventType(h, token, {
      questions: [
        { id: 'company', label: 'Company', type: 'text' },
        { id: 'size', label: 'Team size', type: 'select', required: true, options: ['1–10', '11–50', '51+'] },
        { id: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
      ],
    })) as PublicEventTypeBody;
    expect(et.questions).toEqual([
      { id: 'company', label: 'Company', type: 'text', required: false, options: null },
      { id: 'size', label: 'Team size', type: 'select', required: true, options: ['1–10', '11–50', '51+'] },
      { id: 'terms', label: 'I accept the terms', type: 'checkbox', required: true, options: null },
    ]);
  });

  it('when questions are inconsistent, then 400 names each question field', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      json: {
        title: 'Q',
        durationMinutes: 30,
        questions: [
          { id: 'a', label: 'A', type: 'text', options: ['x'] },
          { id: 'a', label: 'Again', type: 'select' },
          { id: 'c', label: 'C', type: 'multiselect', options: ['x', 'x'] },
        ],
      },
    });
    expectInvalid(res, ['questions[0].options', 'questions[1].id', 'questions[1].options', 'questions[2].options']);
    expectInvalid(
      await h.request({
        method: 'POST',
        url: '/api/v1/event-types',
        token,
        json: { title: 'Q', durationMinutes: 30, questions: [{ id: 'Bad Id', label: '', type: 'date' }] },
      }),
      ['questions[0].id', 'questions[0].label', 'questions[0].type'],
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ id: `q${i}`, label: 'Q', type: 'text' }));
    expectInvalid(
      await h.request({
        method: 'POST',
        url: '/api/v1/event-types',
        token,
        json: { title: 'Q', durationMinutes: 30, questions: many },
      }),
      ['questions'],
    );
  });
});

describe('bookings: answers, metadata, source and the guest’s links', () => {
  let et: PublicEventTypeBody;

  beforeEach(async () => {
    et = (await createEventType(h, token, {
      questions: [
        { id: 'company', label: 'Company', type: 'text', required: true },
        { id: 'email2', label: 'Billing e-mail', type: 'email' },
        { id: 'phone', label: 'Phone', type: 'phone' },
        { id: 'seats', label: 'Seats', type: 'number' },
        { id: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] },
        { id: 'topics', label: 'Topics', type: 'multiselect', options: ['billing', 'api', 'pages'] },
        { id: 'terms', label: 'Terms', type: 'checkbox', required: true },
      ],
    })) as PublicEventTypeBody;
  });

  const create = (json: unknown, key = token, headers: Record<string, string> = {}) =>
    h.request({ method: 'POST', url: '/api/v1/bookings', token: key, json, headers });
  const valid = {
    company: 'Analytical Engines Ltd',
    email2: 'billing@example.com',
    phone: '+44 20 7946 0958',
    seats: 12,
    plan: 'pro',
    topics: ['api', 'pages'],
    terms: true,
  };

  it('when the answers are valid, then they are kept with metadata, source api and the guest’s links', async () => {
    const res = await create(
      bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid, metadata: { orderId: 'A-17' } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json<BookingBody>();
    expect(booking).toMatchObject({ answers: valid, metadata: { orderId: 'A-17' }, source: 'api' });
    expect(booking.manageUrl).toBe(h.context.links.manage(booking.id));
    expect(booking.icsUrl).toBe(h.context.links.ics(booking.id));
    expect(h.context.links.bookingOf('manage', booking.manageUrl!.split('/manage/')[1]!)).toBe(booking.id);
    const fetched = await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token });
    expect(fetched.json()).toEqual(booking);
  });

  it('when answers fail their questions, then 400 has one entry per failing answer as answers.<id>', async () => {
    const res = await create(
      bookingInput(et.id, '2026-01-05T09:00:00Z', {
        answers: {
          email2: 'not-an-address',
          phone: 'call me',
          seats: 'twelve',
          plan: 'enterprise',
          topics: ['api', 'api'],
          terms: false,
          unknown: 'x',
        },
      }),
    );
    const problem = expectInvalid(res, [
      'answers.company',
      'answers.email2',
      'answers.phone',
      'answers.seats',
      'answers.plan',
      'answers.topics',
      'answers.terms',
      'answers.unknown',
    ]);
    expect(problem.errors).toContainEqual({ field: 'answers.company', message: 'is required' });
    expect(problem.errors).toContainEqual({ field: 'answers.terms', message: 'must be checked' });
    expect(problem.errors).toContainEqual({
      field: 'answers.unknown',
      message: 'is not a question of this event type',
    });
    expect((await h.database.rows('bookings')).length).toBe(0);
  });

  it('when metadata breaks its rules, then 400 on metadata and nothing is booked', async () => {
    expectInvalidIncludingMetadata(
      await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid, metadata: { 'bad key': 'x' } })),
    );
    expectInvalidIncludingMetadata(
      await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid, metadata: { k: 'x'.repeat(501) } })),
    );
    const fiftyOne = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expectInvalidIncludingMetadata(
      await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid, metadata: fiftyOne })),
    );
    expect((await h.database.rows('bookings')).length).toBe(0);
  });

  it('when a read key reads bookings, then it sees no guest links', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z', { answers: valid });
    const reader = await h.key('Dr. Ada Lovelace', ['read']);
    const one = (
      await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token: reader })
    ).json<BookingBody>();
    expect(one).not.toHaveProperty('manageUrl');
    expect(one).not.toHaveProperty('icsUrl');
    const list = await h.request({
      method: 'GET',
      url: '/api/v1/bookings?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token: reader,
    });
    expect(list.body).not.toContain('/manage/');
    expect(list.body).not.toContain('/ics/');
  });

  it('when a booking is made, cancelled and its events written, then no stored record holds its links', async () => {
    await h.request({ method: 'POST', url: '/api/v1/webhooks', token, json: { url: 'https://hooks.example.com/x' } });
    const res = await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid }), token, {
      'idempotency-key': 'order-1',
    });
    const booking = res.json<BookingBody>();
    await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/cancel`,
      token,
      headers: { 'idempotency-key': 'cancel-1' },
    });
    const manageToken = booking.manageUrl!.split('/manage/')[1]!;
    const icsToken = booking.icsUrl!.split('/ics/')[1]!.replace(/\.ics$/, '');
    for (const table of ['bookings', 'webhook_events', 'webhook_deliveries', 'idempotency_keys']) {
      const rows = JSON.stringify(await h.database.rows(table));
      expect(rows, table).not.toContain(manageToken.split('.')[1]);
      expect(rows, table).not.toContain(icsToken.split('.')[1]);
    }
    // And a replay under the same key still shows them.
    const replay = await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { answers: valid }), token, {
      'idempotency-key': 'order-1',
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json<BookingBody>().manageUrl).toBe(booking.manageUrl);
  });

  it('when an event is sent, then its bookings carry the guest’s links, made at send time, and data.actor', async () => {
    await h.request({ method: 'POST', url: '/api/v1/webhooks', token, json: { url: 'https://hooks.example.com/x' } });
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z', { answers: valid });
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/reschedule`,
      token,
      json: { start: '2026-01-05T10:00:00Z' },
    });
    const rescheduled = (await h.database.rows('webhook_events')).find((e) => e.type === 'booking.rescheduled');
    const sent = JSON.parse(payloadAsSent(String(rescheduled!.payload), h.context.links));
    expect(sent.data.actor).toBe('api');
    expect(sent.data.booking).toEqual(moved.json());
    expect(sent.data.booking.answers).toEqual(valid);
    expect(sent.data.previousBooking.manageUrl).toBe(h.context.links.manage(booking.id));
  });
});

describe('PATCH /api/v1/bookings/:id', () => {
  let et: EventTypeBody;
  let booking: BookingBody;
  const patch = (id: string, json: unknown, key = token) =>
    h.request({ method: 'PATCH', url: `/api/v1/bookings/${id}`, token: key, json });

  beforeEach(async () => {
    et = await createEventType(h, token);
    booking = await book(h, token, et.id, '2026-01-05T09:00:00Z', { metadata: { a: '1', b: '2' } });
  });

  it('when keys are set and others sent as null, then those change, those go and the rest stay', async () => {
    const res = await patch(booking.id, { metadata: { b: null, c: '3', a: 'one' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BookingBody>().metadata).toEqual({ a: 'one', c: '3' });
    expect(
      (await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token })).json<BookingBody>().metadata,
    ).toEqual({ a: 'one', c: '3' });
  });

  it('when the booking is cancelled, then its metadata can still change', async () => {
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    expect((await patch(booking.id, { metadata: { refunded: 'yes' } })).json<BookingBody>().metadata).toEqual({
      a: '1',
      b: '2',
      refunded: 'yes',
    });
  });

  it('when a reschedule moves it, then the new booking carries the metadata and answers over', async () => {
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/reschedule`,
      token,
      json: { start: '2026-01-05T10:00:00Z' },
    });
    expect(moved.json<BookingBody>()).toMatchObject({ metadata: { a: '1', b: '2' }, answers: {}, source: 'api' });
  });

  it('when the result would hold more than 50 keys, or the body is wrong, then 400; unknown ids 404; read keys 403', async () => {
    const fortyNine = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, 'v']));
    const over = expectInvalid(await patch(booking.id, { metadata: fortyNine }), ['metadata']);
    expect(over.errors![0]!.message).toMatch(/50/);
    expectInvalid(await patch(booking.id, { metadata: { a: 1 } }), ['metadata.a']);
    expectInvalid(await patch(booking.id, { status: 'cancelled' }), ['metadata', 'status']);
    expectProblem(await patch('bkg_unknown', { metadata: {} }), 404, 'not-found');
    const reader = await h.key('Dr. Ada Lovelace', ['read']);
    expectProblem(await patch(booking.id, { metadata: {} }, reader), 403, 'forbidden');
  });
});

function expectInvalidIncludingMetadata(res: Parameters<typeof expectProblem>[0]): void {
  const problem = expectProblem(res, 400, 'invalid-request');
  expect(
    problem.errors!.every((e) => e.field.startsWith('metadata')),
    res.body,
  ).toBe(true);
}

describe('names are one line: control characters refused, free text kept', () => {
  // A name ends up as one line of a calendar file, a page and a list: a line break or another
  // control character in it has no reading, and used to reach calendar files as written.
  const ONE_LINE = 'must be one line, without control characters (line breaks, tabs)';

  it('when a name holds a control character, then 400 on that field with what is wrong, and nothing is written', async () => {
    const displayName = expectInvalid(await patchMe({ displayName: 'Ada\r\nBEGIN:VEVENT' }), ['displayName']);
    expect(displayName.errors).toEqual([{ field: 'displayName', message: ONE_LINE }]);
    expect((await me()).json<MeBody>().holder.displayName).toBe('Dr. Ada Lovelace');

    const eventType = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token,
      json: {
        title: 'Intro\tcall',
        durationMinutes: 30,
        questions: [{ id: 'plan', label: 'Plan\u0001', type: 'select', options: ['free', 'pro\u007f', 'max\u0085'] }],
      },
    });
    const invalid = expectInvalid(eventType, [
      'title',
      'questions[0].label',
      'questions[0].options[1]',
      'questions[0].options[2]',
    ]);
    for (const error of invalid.errors!) expect(error.message).toBe(ONE_LINE);

    const et = await createEventType(h, token);
    expectInvalid(
      await h.request({ method: 'PATCH', url: `/api/v1/event-types/${et.id}`, token, json: { title: 'Intro\ncall' } }),
      ['title'],
    );
    const booking = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T09:00:00Z', { guestName: 'Ada\nLovelace' }),
    });
    expectInvalid(booking, ['guestName']);
    const source = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'ics', url: 'https://calendar.example.com/busy.ics', name: 'Work\u001b[31m' },
    });
    expectInvalid(source, ['name']);
    const bookings = await h.request({ method: 'GET', url: '/api/v1/bookings?from=2026-01-01T00:00:00Z', token });
    expect(bookings.json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('when notes and text answers hold line breaks and tabs, then they are kept as written', async () => {
    const et = await createEventType(h, token, {
      questions: [{ id: 'agenda', label: 'Agenda', type: 'textarea' }],
    });
    const notes = 'First line\r\nsecond line\n\tindented';
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T09:00:00Z', {
        guestName: 'Ada "Countess" Lovelace; of: Ockham, Surrey',
        notes,
        answers: { agenda: notes },
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BookingBody>()).toMatchObject({
      guestName: 'Ada "Countess" Lovelace; of: Ockham, Surrey',
      notes,
      answers: { agenda: notes },
    });
  });
});
