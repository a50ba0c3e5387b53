// End to end: the built server (`node dist/cli/main.js serve`) sends reminders (contract §16) by
// itself: its reminder worker runs in the served process and hands `booking.reminder` to the
// delivery worker, which delivers it to a real receiver on 127.0.0.1. Its clock is the real one,
// so a test moves a reminder's due time into the past in the database file instead of waiting.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/webhook-receiver.js';
import {
  Api,
  bookableCalendar,
  cleanUpEverything,
  dbTemplate,
  ensureBuilt,
  startSlotwise,
  type BookingView,
  type DbTemplate,
} from './webhook-server.js';

let template: DbTemplate;

beforeAll(async () => {
  ensureBuilt();
  template = await dbTemplate(['alice']);
});

afterAll(() => cleanUpEverything());

/** Makes every reminder still to be sent due a second ago, as if its time had come. */
function comeDue(databaseUrl: string): number {
  const db = new Database(databaseUrl.slice('sqlite:'.length));
  try {
    return db.prepare('update booking_reminders set due_at = ?').run(Date.now() - 1_000).changes;
  } finally {
    db.close();
  }
}

describe('reminders from the served process', () => {
  // Two server starts, a kill and a delivery: more than 30 s on a loaded machine.
  it('when a booking’s reminder comes due after the server was killed and started again, then the new process delivers booking.reminder to the webhook', async () => {
    const db = template.copy();
    const receiver = await Receiver.start();
    let server = await startSlotwise(db.databaseUrl);
    try {
      const api = new Api(server, template.tokens.alice!);
      const calendar = await bookableCalendar(api);
      await api.expect(200, 'PATCH', `/event-types/${calendar.eventTypeId}`, { reminders: [{ minutesBefore: 60 }] });
      await api.expect(201, 'POST', '/webhooks', { url: receiver.url, events: ['booking.reminder'] });
      const booking = await api.expect<BookingView>(201, 'POST', '/bookings', {
        eventTypeId: calendar.eventTypeId,
        start: calendar.startAt(40),
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
      });
      await server.kill();
      expect(comeDue(db.databaseUrl)).toBe(1);
      server = await startSlotwise(db.databaseUrl);
      const [delivered] = await receiver.waitFor(1, 15_000);
      const event = JSON.parse(delivered!.body) as {
        type: string;
        data: { booking: BookingView & { manageUrl?: string }; minutesBefore: number };
      };
      expect(event.type).toBe('booking.reminder');
      expect(event.data.minutesBefore).toBe(60);
      expect(event.data.booking.id).toBe(booking.id);
      expect(event.data.booking.manageUrl).toEqual(expect.any(String));
      // Sent once: its row is gone, and nothing more arrives.
      expect(comeDue(db.databaseUrl)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.requests).toHaveLength(1);
      await server.stop();
      expect((await server.exited).code).toBe(0);
    } finally {
      await server.kill();
      await receiver.close();
      db.remove();
    }
  }, 60_000);
});
