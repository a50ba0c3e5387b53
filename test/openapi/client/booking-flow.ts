// A client program written the way an integrator would: against `@slotwise/client` installed
// from the tarball `npm pack` makes of packages/client. test/openapi/client.test.ts installs it
// into a temporary project beside this file, compiles this with tsc (strict) and runs it against a
// real server. It is excluded from the project's own type-check (tsconfig.json), because the
// package only resolves in that temporary project.
//
// The `@ts-expect-error` lines prove the generated types are precise rather than `any`: if one of
// those misuses type-checked, tsc would fail with "Unused '@ts-expect-error' directive".
import { createClient, type Schemas } from '@slotwise/client';

type Booking = Schemas['Booking'];
type Problem = Schemas['Problem'];

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

const baseUrl = setting('SLOTWISE_URL');
const apiKey = setting('SLOTWISE_KEY');

const client = createClient({ baseUrl, apiKey });

/** What each step answered, for the test to check. */
const log: Array<{ step: string; status: number }> = [];

function expectOk<T>(step: string, result: { data?: T; error?: unknown; response: Response }, status: number): T {
  log.push({ step, status: result.response.status });
  if (result.response.status !== status || result.data === undefined) {
    throw new Error(`${step}: expected ${status}, got ${result.response.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

function expectProblem(
  step: string,
  result: { error?: Problem; response: Response },
  status: number,
  type: string,
): Problem {
  log.push({ step, status: result.response.status });
  const problem = result.error;
  if (result.response.status !== status || !problem || problem.type !== type) {
    throw new Error(`${step}: expected ${status} ${type}, got ${result.response.status}: ${JSON.stringify(problem)}`);
  }
  return problem;
}

async function main(): Promise<void> {
  // 1. An event type (with an Idempotency-Key, as a careful integrator would send).
  const eventType = expectOk(
    'create event type',
    await client.POST('/api/v1/event-types', {
      params: { header: { 'Idempotency-Key': `flow-${Date.now()}` } },
      body: { title: 'Generated client call', durationMinutes: 30, bufferAfterMinutes: 10 },
    }),
    201,
  );

  // 2. Bookable all day, every day, in UTC: whenever the test runs, tomorrow has slots.
  const allDay = [{ start: '00:00', end: '24:00' }];
  const availability = expectOk(
    'replace availability',
    await client.PUT('/api/v1/availability', {
      body: {
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
        overrides: [],
      },
    }),
    200,
  );

  // 3. Slots of tomorrow, rendered in Berlin time.
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  tomorrow.setUTCHours(0, 0, 0, 0);
  const from = tomorrow.toISOString();
  const to = new Date(tomorrow.getTime() + 24 * 3600_000).toISOString();
  const slots = expectOk(
    'list slots',
    await client.GET('/api/v1/slots', {
      params: { query: { eventTypeId: eventType.id, from, to, timeZone: 'Europe/Berlin' } },
    }),
    200,
  );
  const [first, second, third] = slots.data;
  if (!first || !second || !third) throw new Error(`expected at least 3 slots, got ${slots.data.length}`);

  // 4. Book the first slot, read it back, cancel it.
  const booking: Booking = expectOk(
    'create booking',
    await client.POST('/api/v1/bookings', {
      body: { eventTypeId: eventType.id, start: first.start, guestName: 'Ada', guestEmail: 'ada@example.com' },
    }),
    201,
  );
  const fetched = expectOk(
    'get booking',
    await client.GET('/api/v1/bookings/{id}', { params: { path: { id: booking.id } } }),
    200,
  );
  if (fetched.id !== booking.id || fetched.status !== 'confirmed') throw new Error('get booking: wrong booking');
  const cancelled = expectOk(
    'cancel booking',
    await client.POST('/api/v1/bookings/{id}/cancel', {
      params: { path: { id: booking.id } },
      body: { reason: 'Ada is ill' },
    }),
    200,
  );
  if (cancelled.status !== 'cancelled' || cancelled.cancellationReason !== 'Ada is ill')
    throw new Error('cancel: wrong state');
  expectProblem(
    'cancel again',
    await client.POST('/api/v1/bookings/{id}/cancel', { params: { path: { id: booking.id } }, body: {} }),
    409,
    'urn:service:problem:invalid-state',
  );

  // 5. Book the second slot (as epoch milliseconds) and reschedule it to the third.
  const other = expectOk(
    'create second booking',
    await client.POST('/api/v1/bookings', {
      body: {
        eventTypeId: eventType.id,
        start: Date.parse(second.start),
        guestName: 'Bob',
        guestEmail: 'bob@example.com',
      },
    }),
    201,
  );
  const moved = expectOk(
    'reschedule booking',
    await client.POST('/api/v1/bookings/{id}/reschedule', {
      params: { path: { id: other.id } },
      body: { start: third.start },
    }),
    201,
  );
  if (moved.rescheduledFromId !== other.id || moved.status !== 'confirmed')
    throw new Error('reschedule: wrong new booking');
  const old = expectOk(
    'get old booking',
    await client.GET('/api/v1/bookings/{id}', { params: { path: { id: other.id } } }),
    200,
  );
  if (old.status !== 'rescheduled' || old.rescheduledToId !== moved.id)
    throw new Error('reschedule: old booking not marked');

  // 6. The taken time is refused with a typed problem document.
  const refused = expectProblem(
    'book taken slot',
    await client.POST('/api/v1/bookings', {
      body: { eventTypeId: eventType.id, start: third.start, guestName: 'Eve', guestEmail: 'eve@example.com' },
    }),
    409,
    'urn:service:problem:slot-unavailable',
  );

  // 7. The list shows the one confirmed booking.
  const list = expectOk(
    'list bookings',
    await client.GET('/api/v1/bookings', { params: { query: { from, to } } }),
    200,
  );
  if (list.data.length !== 1 || list.data[0]?.id !== moved.id) throw new Error(`list: ${JSON.stringify(list.data)}`);

  // 8. An unknown id is a 404 problem.
  expectProblem(
    'get unknown booking',
    await client.GET('/api/v1/bookings/{id}', { params: { path: { id: 'bkg_unknown' } } }),
    404,
    'urn:service:problem:not-found',
  );

  // 9. `holderId` is sent as Slotwise-Holder: a holder key may name its own holder, and no other.
  const me = expectOk('get me', await client.GET('/api/v1/me'), 200);
  if (!('holder' in me)) throw new Error('get me: a holder key sees its holder');
  const asItself = createClient({ baseUrl, apiKey, holderId: me.holder.id });
  expectOk('get me as its own holder', await asItself.GET('/api/v1/me'), 200);
  const asAnother = createClient({ baseUrl, apiKey, holderId: 'hdr_00000000000000000000' });
  log.push({ step: 'get me as another holder', status: (await asAnother.GET('/api/v1/me')).response.status });

  process.stdout.write(
    `${JSON.stringify({ log, eventTypeId: eventType.id, timeZone: availability.timeZone, movedId: moved.id, refusedDetail: refused.detail })}\n`,
  );
}

/** Never called: only type-checked. Each line must be a type error for the compile to pass. */
export function misuses(): void {
  // @ts-expect-error durationMinutes is an integer, not a string
  void client.POST('/api/v1/event-types', { body: { title: 'x', durationMinutes: '30' } });
  const numericTimes = { timeZone: 'UTC', weekly: { monday: [{ start: 900, end: 1700 }] } };
  // @ts-expect-error wall times are "HH:MM" strings
  void client.PUT('/api/v1/availability', { body: numericTimes });
  // @ts-expect-error eventTypeId is a required query parameter of /slots
  void client.GET('/api/v1/slots', { params: { query: { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' } } });
  // @ts-expect-error a booking's status is one of confirmed, cancelled, rescheduled
  const status: Booking['status'] = 'pending';
  void status;
  void client.GET('/api/v1/slots', {
    // @ts-expect-error a misspelt query parameter (timezone, not timeZone) is no parameter of /slots
    params: { query: { eventTypeId: 'evt_1', from: 'x', to: 'y', timezone: 'UTC' } },
  });
  void client.POST('/api/v1/bookings', {
    // @ts-expect-error a misspelt body field (guestTimezone, not guestTimeZone)
    body: { eventTypeId: 'evt_1', start: 0, guestName: 'A', guestEmail: 'a@example.com', guestTimezone: 'UTC' },
  });
  // @ts-expect-error createClient needs the API key
  void createClient({ baseUrl: 'http://localhost' });
  // @ts-expect-error there is no DELETE on bookings
  void client.DELETE('/api/v1/bookings/{id}', { params: { path: { id: 'bkg_1' } } });
}

await main();
