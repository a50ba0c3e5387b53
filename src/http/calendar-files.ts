// The calendar files of contract §10, outside the API (no key: the link is the capability):
// `icsUrl` (one booking, for the guest) and `calendarFeedUrl` (the holder's bookings, for a
// calendar app). Written with ical-generator, so escaping, line folding and UTC instants are the
// library's, not string concatenation.
import type { FastifyInstance, FastifyReply } from 'fastify';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { bookingFile, holderFeed, type CalendarFileContent } from '../app/calendar-files.js';
import type { AppContext } from '../app/context.js';
import type { Booking } from '../domain/booking.js';

const PRODUCT = { company: 'Slotwise', product: 'Slotwise', language: 'EN' };

/** Whose eyes a file is for: the guest's one booking, or the holder's whole feed. */
type Audience = 'guest' | 'holder';

export function registerCalendarFiles(app: FastifyInstance, context: AppContext): void {
  app.get<{ Params: { file: string } }>('/ics/:file', async (request, reply) => {
    const content = await open(request.params.file, (token) => bookingFile(context, token));
    if (!content) return notFound(reply);
    return send(reply, render(content, 'guest'), { disposition: 'attachment; filename="booking.ics"', maxAge: 0 });
  });
  app.get<{ Params: { file: string } }>('/feeds/:file', async (request, reply) => {
    const content = await open(request.params.file, (token) => holderFeed(context, token));
    if (!content) return notFound(reply);
    // Calendar apps poll a feed: five minutes of it may be reused by the client, never by a proxy.
    return send(reply, render(content, 'holder'), { disposition: 'inline; filename="slotwise.ics"', maxAge: 300 });
  });
}

async function open(
  file: string,
  load: (token: string) => Promise<CalendarFileContent | undefined>,
): Promise<CalendarFileContent | undefined> {
  if (!file.endsWith('.ics') || file.length > 512) return undefined;
  return load(file.slice(0, -'.ics'.length));
}

/**
 * One VEVENT per booking, its UID the booking's id (stable: a booking never changes its time; a
 * reschedule makes a new booking). A cancelled or rescheduled one stays in the file with
 * STATUS:CANCELLED and SEQUENCE 1, so a calendar that had it removes it.
 */
function render(content: CalendarFileContent, audience: Audience): string {
  const holderName = content.holder.displayName ?? content.holder.name;
  const calendar = ical({
    prodId: PRODUCT,
    name: audience === 'holder' ? `${holderName} (Slotwise)` : null,
    method: audience === 'guest' ? ICalCalendarMethod.PUBLISH : null,
  });
  for (const booking of content.bookings) {
    const title = content.titles.get(booking.eventTypeId) ?? 'Booking';
    calendar.createEvent({
      id: `${booking.id}@slotwise`,
      start: new Date(booking.start),
      end: new Date(booking.end),
      stamp: new Date(booking.updatedAt),
      created: new Date(booking.createdAt),
      lastModified: new Date(booking.updatedAt),
      sequence: booking.status === 'confirmed' ? 0 : 1,
      status: booking.status === 'confirmed' ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
      summary: audience === 'holder' ? `${title}: ${booking.guestName}` : `${title} with ${holderName}`,
      description: audience === 'holder' ? describe(booking) : null,
      attendees: [{ name: booking.guestName, email: booking.guestEmail }],
    });
  }
  return calendar.toString();
}

/** The holder's notes on a booking in its feed: the guest's notes and answers. */
function describe(booking: Booking): string | null {
  const lines = [
    ...(booking.notes ? [booking.notes] : []),
    ...Object.entries(booking.answers).map(
      ([question, answer]) => `${question}: ${Array.isArray(answer) ? answer.join(', ') : String(answer)}`,
    ),
  ];
  return lines.length > 0 ? lines.join('\n') : null;
}

function send(reply: FastifyReply, text: string, options: { disposition: string; maxAge: number }) {
  return reply
    .header('content-type', 'text/calendar; charset=utf-8')
    .header('content-disposition', options.disposition)
    .header('cache-control', options.maxAge > 0 ? `private, max-age=${options.maxAge}` : 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .send(text);
}

/** Every link that opens nothing looks the same: no telling a forged token from a rotated feed. */
function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('referrer-policy', 'no-referrer')
    .send('Not found\n');
}
