import { appointmentSequence, appointmentUid } from '../domain/appointment.js';
import type { Booking } from '../domain/booking.js';
import { MINUTE_MS, type Instant } from '../domain/instant.js';
import {
  namedHosts,
  occurrenceNoticeMessage,
  overCapError,
  type BookingEmailContent,
  type NotificationKind,
} from '../domain/notification.js';
import type { AppContext } from './context.js';
import type { TransactionEvents } from './outbox.js';
import { occurrencesChanged } from './occurrence-notices.js';
import { byOwner, transactionOfOwners } from './owner-scope.js';
import type { BookingEmailFacts, EmailChange, EmailHost, NewNotification } from './ports/notification-store.js';
import type { Transaction } from './ports/store.js';
import type { ReminderSending } from './reminders.js';

/** A booking's change, as its e-mails tell it. */
export type BookingChange =
  { kind: 'created' | 'cancelled'; booking: Booking } | { kind: 'rescheduled'; booking: Booking; previous: Booking };

/** One message to write: its booking and owners, its content, when it was written and when it is due. */
interface QueuedEmail {
  accountId: string;
  booking: Pick<Booking, 'id' | 'holderId'>;
  content: BookingEmailContent;
  createdAt: Instant;
  dueAt: Instant;
}

/**
 * A booking's change, to be told by e-mail (contract §16), written in its transaction, so its
 * e-mails are written and sent exactly when it commits: one row (`EmailChange`), the change as it
 * is. The e-mail worker writes its messages from it moments later (`writeQueuedEmails`), off the
 * booking's path. Nothing without SMTP.
 */
export async function queueBookingEmails(
  context: Pick<AppContext, 'email'>,
  tx: Transaction,
  events: TransactionEvents,
  accountId: string,
  change: BookingChange,
  now: Instant,
): Promise<void> {
  if (!context.email) return;
  await tx.notifications.queueEmailChange({
    bookingId: change.booking.id,
    accountId,
    holderId: change.booking.holderId,
    change: JSON.stringify(change),
    createdAt: now,
  });
  events.emailsWritten += 1;
}

/**
 * Writes the e-mails of the changes still waiting (`queueBookingEmails`), oldest first, up to
 * `limit`, of one owner (a holder, or a team booking's account) or of all: each owner's in one
 * transaction that takes them (another instance's worker taking one first leaves it out), so
 * each change's e-mails are written once. Answers how many were waiting: fewer than `limit` means
 * none are left. An owner whose transaction fails is told to `failed`; its changes wait for the
 * next call.
 */
export async function writeQueuedEmails(
  context: AppContext,
  options: { limit: number; ownerId?: string; failed?: (error: unknown, ownerId: string) => void },
): Promise<number> {
  const waiting = await context.store.notifications.emailChangesToWrite(options.limit, options.ownerId);
  for (const [owner, changes] of byOwner(waiting)) {
    try {
      await transactionOfOwners(context, [owner], async (tx, events) => {
        const taken = await tx.notifications.takeEmailChanges(changes);
        await writeChangesEmails(context, tx, events, taken, (error) => options.failed?.(error, owner));
      });
    } catch (error) {
      options.failed?.(error, owner);
    }
  }
  return waiting.length;
}

/**
 * The e-mails of booking changes (contract §16), in their order, each as of its change: one to
 * the guest (unless the event type's `notifications.guest` is false) and one to every host with
 * an e-mail (unless `notifications.hosts` is false). A reschedule that changes a round-robin host
 * tells the old host as of a cancellation (of the time it had) and the new one as of a creation.
 * A seat's hosts are told of its occurrence instead (`queueOccurrenceEmails`). The changes share
 * the statements: an event type's facts are read once, and the messages written together.
 */
async function writeChangesEmails(
  context: Pick<AppContext, 'email' | 'ids' | 'now'>,
  tx: Transaction,
  events: TransactionEvents,
  changes: readonly EmailChange[],
  unreadable: (error: unknown) => void,
): Promise<void> {
  const factsRead = new Map<string, Promise<BookingEmailFacts | undefined>>();
  const emails: QueuedEmail[] = [];
  for (const stored of changes) {
    let change: BookingChange;
    try {
      change = JSON.parse(stored.change) as BookingChange;
    } catch (error) {
      // Unreadable, it would stop its owner's changes behind it on every call: it is dropped, and told.
      unreadable(error);
      continue;
    }
    const { booking } = change;
    const previous = change.kind === 'rescheduled' ? change.previous : undefined;
    const hostIds = [...new Set([...booking.hostIds, ...(previous?.hostIds ?? [])])];
    const key = `${booking.eventTypeId} ${hostIds.join(' ')}`;
    if (!factsRead.has(key)) factsRead.set(key, tx.notifications.emailFacts(booking.eventTypeId, hostIds));
    const facts = await factsRead.get(key)!;
    if (!facts) continue;
    if (facts.notifications.hosts && facts.seated) {
      // After the messages before it, which its hosts' cap counts.
      await writeEmails(context, tx, events, emails.splice(0));
      await queueOccurrenceEmails(context, tx, events, stored.accountId, change, facts.hosts, stored.createdAt);
    }
    for (const content of emailsOfChange(change, facts))
      emails.push({
        accountId: stored.accountId,
        booking,
        content,
        createdAt: stored.createdAt,
        dueAt: stored.createdAt,
      });
  }
  await writeEmails(context, tx, events, emails);
}

/** What a change tells its guest and, unless its type is seated, its hosts, by e-mail. */
function emailsOfChange(change: BookingChange, facts: BookingEmailFacts): BookingEmailContent[] {
  const { booking } = change;
  const { hosts } = facts;
  const contentOf = (kind: NotificationKind, about: Booking, recipient: BookingEmailContent['recipient']) => {
    // An old host's cancellation is of the appointment as that host knew it, and replaces it.
    const movedAway = about !== booking;
    return {
      kind,
      booking: about,
      title: facts.title,
      hosts: namedHosts(hosts, about),
      recipient,
      uid: appointmentUid(about),
      sequence: movedAway
        ? Math.max(appointmentSequence(about), appointmentSequence(booking))
        : appointmentSequence(about),
    };
  };
  const emails: BookingEmailContent[] = [];
  if (facts.notifications.guest) emails.push(contentOf(change.kind, booking, guestRecipient(booking, facts.eventZone)));
  if (facts.notifications.hosts && !facts.seated)
    for (const host of hosts) {
      if (host.email === null) continue;
      const { kind, about } = hostsChange(change, host.holderId);
      emails.push(
        contentOf(kind, about, { role: 'host', name: host.name, email: host.email, zone: host.zone, locale: 'en' }),
      );
    }
  return emails;
}

/**
 * A seat's change, as its hosts' e-mails tell it (contract §16): not one message per seat (a
 * webinar's hundred guests would send its host a hundred, past `EMAIL_PER_RECIPIENT_PER_HOUR`),
 * but a notice per host of each occurrence the change touched, which reads the occurrence when it
 * is sent and tells what the host was not told yet: that it takes place, or that it ended
 * (occurrence-notices.ts). A notice still waiting for its turn tells this change too, so none is
 * added beside it.
 */
async function queueOccurrenceEmails(
  context: Pick<AppContext, 'email' | 'ids' | 'now'>,
  tx: Transaction,
  events: TransactionEvents,
  accountId: string,
  change: BookingChange,
  hosts: readonly EmailHost[],
  changedAt: Instant,
): Promise<void> {
  const settings = context.email!;
  const mailed = hosts.filter((host): host is EmailHost & { email: string } => host.email !== null);
  if (mailed.length === 0) return;
  const counts = await tx.notifications.recentCounts(
    'email',
    mailed.map((host) => host.email),
    changedAt - 60 * MINUTE_MS,
    settings.perRecipientPerHour,
  );
  for (const host of mailed) {
    const overCap = (counts.get(host.email.toLowerCase()) ?? 0) >= settings.perRecipientPerHour;
    for (const { kind, notice } of occurrencesChanged(change, host.holderId)) {
      const row: NewNotification = {
        id: context.ids.newId('ntf'),
        bookingId: change.booking.id,
        accountId,
        holderId: change.booking.holderId,
        channel: 'email',
        kind,
        recipient: host.email,
        message: occurrenceNoticeMessage(notice),
        status: overCap ? 'failed' : 'pending',
        lastError: overCap ? overCapError(settings.perRecipientPerHour) : null,
        dueAt: changedAt,
        createdAt: changedAt,
      };
      if (overCap) await tx.notifications.insert([row]);
      else if (await tx.notifications.insertUnlessPending(row, context.now())) events.emailsWritten += 1;
    }
  }
}

/**
 * The guest's reminder e-mail of a due reminder (contract §16), written in the reminder's
 * transaction (its `alsoOnReminder`): a plain message, no iTIP part (it changes nothing in a
 * calendar), due at once. None when the event type's `notifications.guest` is false, or without SMTP.
 */
export async function queueReminderEmail(
  context: Pick<AppContext, 'email' | 'ids'>,
  tx: Transaction,
  events: TransactionEvents,
  { accountId, booking, now }: ReminderSending,
): Promise<void> {
  if (!context.email) return;
  const facts = await tx.notifications.emailFacts(booking.eventTypeId, booking.hostIds);
  if (!facts?.notifications.guest) return;
  const content: BookingEmailContent = {
    kind: 'reminder',
    booking,
    title: facts.title,
    hosts: namedHosts(facts.hosts, booking),
    recipient: guestRecipient(booking, facts.eventZone),
    uid: appointmentUid(booking),
    sequence: appointmentSequence(booking),
  };
  await writeEmails(context, tx, events, [{ accountId, booking, content, createdAt: now, dueAt: now }]);
}

/** The guest as the booking's e-mails address it: in its zone (else the event's) and its page's language. */
function guestRecipient(booking: Booking, eventZone: string): BookingEmailContent['recipient'] {
  return {
    role: 'guest',
    name: booking.guestName,
    email: booking.guestEmail,
    zone: booking.guestTimeZone ?? eventZone,
    locale: booking.guestLanguage,
  };
}

/**
 * What a host is told of a change (its e-mail, its calendar's write): a reschedule that took it
 * off the booking is its cancellation (of the booking it had), one that put it on its creation.
 */
export function hostsChange(
  change: BookingChange,
  holderId: string,
): { kind: Exclude<NotificationKind, 'reminder'>; about: Booking } {
  if (change.kind !== 'rescheduled') return { kind: change.kind, about: change.booking };
  const onNew = change.booking.hostIds.includes(holderId);
  const onOld = change.previous.hostIds.includes(holderId);
  if (onNew && onOld) return { kind: 'rescheduled', about: change.booking };
  return onNew ? { kind: 'created', about: change.booking } : { kind: 'cancelled', about: change.previous };
}

/**
 * Writes e-mails to the notification outbox, in the caller's transaction, in one statement, each
 * due at its `dueAt` (a reminder's: its time). A recipient that already had
 * `EMAIL_PER_RECIPIENT_PER_HOUR` messages in the hour before the message was written (those before
 * it here included) gets none: its row is written `failed` at once, saying why, so the booking's
 * log shows it. Nothing without SMTP.
 */
async function writeEmails(
  context: Pick<AppContext, 'email' | 'ids'>,
  tx: Transaction,
  events: TransactionEvents,
  emails: readonly QueuedEmail[],
): Promise<void> {
  const settings = context.email;
  if (!settings || emails.length === 0) return;
  // Over the hour before the earliest: a message of a later change counts what the earlier sent,
  // and in a batch of moments at most one or two more than an exact hour would.
  const since = Math.min(...emails.map((email) => email.createdAt)) - 60 * MINUTE_MS;
  const counts = await tx.notifications.recentCounts(
    'email',
    emails.map((email) => email.content.recipient.email),
    since,
    settings.perRecipientPerHour,
  );
  const rows: NewNotification[] = emails.map(({ accountId, booking, content, createdAt, dueAt }) => {
    const address = content.recipient.email.toLowerCase();
    const sent = counts.get(address) ?? 0;
    const overCap = sent >= settings.perRecipientPerHour;
    if (!overCap) counts.set(address, sent + 1);
    return {
      id: context.ids.newId('ntf'),
      bookingId: booking.id,
      accountId,
      holderId: booking.holderId,
      channel: 'email',
      kind: content.kind,
      recipient: content.recipient.email,
      message: JSON.stringify(content),
      status: overCap ? 'failed' : 'pending',
      lastError: overCap ? overCapError(settings.perRecipientPerHour) : null,
      dueAt,
      createdAt,
    };
  });
  await tx.notifications.insert(rows);
  events.emailsWritten += rows.filter((row) => row.status === 'pending').length;
}
