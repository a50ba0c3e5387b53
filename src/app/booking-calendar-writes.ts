import { appointmentSequence, appointmentUid } from '../domain/appointment.js';
import type { Booking } from '../domain/booking.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import { occurrenceNoticeMessage, type NotificationKind } from '../domain/notification.js';
import { hostsChange, type BookingChange } from './booking-emails.js';
import type { AppContext } from './context.js';
import { occurrenceOf, occurrencesChanged } from './occurrence-notices.js';
import type { TransactionEvents } from './outbox.js';
import type { NewNotification } from './ports/notification-store.js';
import type { Transaction } from './ports/store.js';

/**
 * What one write to a host's calendar does, as of the change (contract §16, "The host's own
 * calendar"): put the appointment's event (created, rescheduled) or remove it (cancelled), under
 * the appointment's UID, its SEQUENCE as of the change.
 */
export interface CalendarWriteContent {
  kind: Exclude<NotificationKind, 'reminder'>;
  /** The host whose calendar it is (the source's holder). */
  holderId: string;
  uid: string;
  sequence: number;
  title: string;
  booking: Pick<Booking, 'id' | 'start' | 'end' | 'createdAt' | 'guestName' | 'guestEmail' | 'location' | 'notes'>;
}

/**
 * The writes of a booking's change to its hosts' own calendars (the source with `writeBookings`
 * of each host that has one), in the change's transaction, so they are made exactly when it
 * commits. A reschedule that changes a round-robin host removes the event from the old host's
 * calendar and writes it to the new one's, as the e-mails tell them. A seat's change writes its
 * occurrence instead, once per host and occurrence it touched: a notice the writer resolves when
 * it runs (the occurrence's event as it is then, or its removal once it has no seat), so it is
 * idempotent and in any order right; none is added beside one still waiting. `sourceCounts`,
 * when the change's decision read them, spares the booking's path the statement for hosts with no source.
 */
export async function queueCalendarWrites(
  context: Pick<AppContext, 'ids'>,
  tx: Transaction,
  events: TransactionEvents,
  accountId: string,
  change: BookingChange,
  now: Instant,
  sourceCounts?: ReadonlyMap<string, number>,
): Promise<void> {
  const { booking } = change;
  const previous = change.kind === 'rescheduled' ? change.previous : undefined;
  const hostIds = [...new Set([...booking.hostIds, ...(previous?.hostIds ?? [])])];
  if (sourceCounts && hostIds.every((id) => (sourceCounts.get(id) ?? 0) === 0)) return;
  const targets = await tx.notifications.calendarTargets(hostIds);
  if (targets.size === 0) return;
  const facts = await tx.notifications.emailFacts(booking.eventTypeId, []);
  if (facts?.seated) {
    for (const [holderId, sourceId] of targets)
      for (const { kind, notice } of occurrencesChanged(change, holderId)) {
        const row = calendarWriteRow(context, accountId, booking, sourceId, kind, occurrenceNoticeMessage(notice), now);
        if (await tx.notifications.insertUnlessPending(row, now)) events.calendarWritesWritten += 1;
      }
    return;
  }
  const rows: NewNotification[] = [];
  for (const [holderId, sourceId] of targets) {
    const { kind, about } = hostsChange(change, holderId);
    // The old host's removal replaces what that host had: at least the new booking's SEQUENCE.
    const sequence = Math.max(appointmentSequence(about), appointmentSequence(booking));
    const content = writeContent(kind, holderId, about, sequence, facts?.title ?? 'Booking');
    rows.push(calendarWriteRow(context, accountId, booking, sourceId, kind, JSON.stringify(content), now));
  }
  await tx.notifications.insert(rows);
  events.calendarWritesWritten += rows.length;
}

/**
 * The holder's future confirmed bookings (its own and the team bookings it hosts), the first
 * `FUTURE_WRITES_MAX` by start, written to the source just switched on (`writeBookings`), in the
 * switch's transaction; the seats of one occurrence as one write of it. Answers how many were written.
 */
export async function queueFutureWrites(
  context: Pick<AppContext, 'ids'>,
  tx: Transaction,
  source: { id: string; holderId: string; accountId: string },
  now: Instant,
): Promise<number> {
  const bookings = (
    await tx.bookings.listAnyStatus(source.holderId, now, now + FUTURE_WRITES_AHEAD_MS, FUTURE_WRITES_MAX)
  ).filter((booking) => booking.status === 'confirmed');
  if (bookings.length === 0) return 0;
  const titles = await tx.eventTypes.titles(
    source.holderId,
    bookings.map((booking) => booking.eventTypeId),
  );
  const seated = new Set<string>();
  for (const eventTypeId of new Set(bookings.map((booking) => booking.eventTypeId)))
    if ((await tx.notifications.emailFacts(eventTypeId, []))?.seated) seated.add(eventTypeId);
  const occurrences = new Set<string>();
  const rows = bookings.flatMap((booking) => {
    if (seated.has(booking.eventTypeId)) {
      const notice = { occurrence: occurrenceOf(booking), holderId: source.holderId };
      const message = occurrenceNoticeMessage(notice);
      if (occurrences.has(message)) return [];
      occurrences.add(message);
      return [calendarWriteRow(context, source.accountId, booking, source.id, 'created', message, now)];
    }
    const title = titles.get(booking.eventTypeId) ?? 'Booking';
    const content = writeContent('created', source.holderId, booking, appointmentSequence(booking), title);
    return [calendarWriteRow(context, source.accountId, booking, source.id, 'created', JSON.stringify(content), now)];
  });
  await tx.notifications.insert(rows);
  return rows.length;
}

/** How far ahead, and how many, of a holder's bookings switching `writeBookings` on writes (docs/api.md, "Limits"). */
export const FUTURE_WRITES_AHEAD_MS = 367 * DAY_MS;
export const FUTURE_WRITES_MAX = 1_000;

function writeContent(
  kind: CalendarWriteContent['kind'],
  holderId: string,
  about: Booking,
  sequence: number,
  title: string,
): CalendarWriteContent {
  return {
    kind,
    holderId,
    uid: appointmentUid(about),
    sequence,
    title,
    booking: {
      id: about.id,
      start: about.start,
      end: about.end,
      createdAt: about.createdAt,
      guestName: about.guestName,
      guestEmail: about.guestEmail,
      location: about.location,
      notes: about.notes,
    },
  };
}

/**
 * One write to write: a `calendar` notification to the source, due now, whose message is what it
 * writes (`CalendarWriteContent`) or the occurrence it writes when it runs (an occurrence notice).
 */
function calendarWriteRow(
  context: Pick<AppContext, 'ids'>,
  accountId: string,
  booking: Pick<Booking, 'id' | 'holderId'>,
  sourceId: string,
  kind: CalendarWriteContent['kind'],
  message: string,
  now: Instant,
): NewNotification {
  return {
    id: context.ids.newId('ntf'),
    bookingId: booking.id,
    accountId,
    holderId: booking.holderId,
    channel: 'calendar',
    kind,
    recipient: sourceId,
    message,
    status: 'pending',
    lastError: null,
    dueAt: now,
    createdAt: now,
  };
}
