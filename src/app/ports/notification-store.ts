// The notification outbox (contract §16): what a booking's change writes (one row per message to
// one recipient, in the change's transaction), what the booking's log reads, and the queue the
// e-mail worker claims from.
import type { Instant } from '../../domain/instant.js';
import type { NotificationSettings } from '../../domain/event-type.js';
import type {
  Notification,
  NotificationChannel,
  NotificationKind,
  NotificationStatus,
} from '../../domain/notification.js';

/** A message to write: due at `dueAt`, or (over its recipient's cap) finished at once as `failed`. */
export interface NewNotification {
  id: string;
  bookingId: string;
  /** The booking's owners: its account, and its holder (null for a team booking). */
  accountId: string;
  holderId: string | null;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  /** What the message says as of the change (JSON), so a later change never rewrites it. */
  message: string;
  status: Extract<NotificationStatus, 'pending' | 'failed'>;
  lastError: string | null;
  dueAt: Instant;
  createdAt: Instant;
}

/** A person a booking e-mail may go to, as the change's transaction reads them. */
export interface EmailHost {
  holderId: string;
  name: string;
  email: string | null;
  /** Its default schedule's zone: a host reads its e-mails' times in it. */
  zone: string;
}

/** What a booking's e-mails say besides the booking, read in its change's transaction. */
export interface BookingEmailFacts {
  /** The event type's title (deleted ones' too: their bookings stay). */
  title: string;
  notifications: NotificationSettings;
  /** The zone the event is booked in: a guest without `guestTimeZone` reads the times in it. */
  eventZone: string;
  /** The hosts asked for, in that order, with their e-mail (none for a deleted holder) and default zone. */
  hosts: EmailHost[];
  /** Whether the event type has seats (contract §15): its hosts are told of its occurrences, not of each seat. */
  seated: boolean;
}

/**
 * A booking's change whose e-mails are still to be written (contract §16): the booking's
 * transaction writes this alone, and the e-mail worker writes its messages (`NewNotification`s).
 */
export interface EmailChange {
  /** Ascending in the order the changes are to be written out. */
  id: number;
  bookingId: string;
  accountId: string;
  holderId: string | null;
  /** The change (`BookingChange`) as JSON: the booking, and the one it moved from, as the change left them. */
  change: string;
  createdAt: Instant;
}

export interface NotificationReads {
  /** The booking's notifications, oldest first. */
  listOfBooking(bookingId: string): Promise<Notification[]>;
  /**
   * What the e-mails of a booking of the event type say besides the booking, with the hosts
   * `hostIds` names (one statement); undefined for no such event type.
   */
  emailFacts(eventTypeId: string, hostIds: readonly string[]): Promise<BookingEmailFacts | undefined>;
  /**
   * The kind of the message of the channel last sent to the recipient (whatever its case) with
   * exactly this stored message (an occurrence notice's), as the sending recorded it; undefined
   * for none.
   */
  lastSent(channel: NotificationChannel, recipient: string, message: string): Promise<NotificationKind | undefined>;
  /**
   * Up to `limit` changes whose e-mails are still to be written: of one owner (a holder, or a team
   * booking's account), its oldest; of all, ranked as the messages' claim is (each owner's oldest
   * first, an account's owners in turn, every account's first before any account's second), so
   * that one account's burst of changes does not hold back another's. An owner's come in the order
   * written.
   */
  emailChangesToWrite(limit: number, ownerId?: string): Promise<EmailChange[]>;
}

export interface NotificationWrites extends NotificationReads {
  /**
   * How many messages of the channel went to each of the recipients (compared whatever their case;
   * the keys lower-cased) since `since`, those refused by the cap not counted; at most `atMost`
   * each (the cap: more need not be counted).
   */
  recentCounts(
    channel: NotificationChannel,
    recipients: readonly string[],
    since: Instant,
    atMost: number,
  ): Promise<Map<string, number>>;
  insert(notifications: readonly NewNotification[]): Promise<void>;
  /** Writes a change whose e-mails are to be written (on the booking's path: one statement, one row). */
  queueEmailChange(change: Omit<EmailChange, 'id'>): Promise<void>;
  /**
   * Removes the changes to write their e-mails, answering those it removed: a change another
   * transaction removed first (another instance's worker) is left out, so each is written once.
   */
  takeEmailChanges(changes: readonly EmailChange[]): Promise<EmailChange[]>;
  /**
   * Writes the pending notification unless one of the same channel, recipient and message is
   * pending and not claimed by a worker (an occurrence notice's: that one tells the latest state
   * when it runs); on PostgreSQL that row is locked until the transaction ends, so no worker reads
   * the state before this change commits. Answers whether it wrote one.
   */
  insertUnlessPending(notification: NewNotification, now: Instant): Promise<boolean>;
  /** The source each of `holderIds` has its bookings written to (`writeBookings`), by holder; holders without one are left out. */
  calendarTargets(holderIds: readonly string[]): Promise<Map<string, string>>;
}

/** A claimed message, with what its worker needs to send it without another query. */
export interface NotificationJob {
  id: string;
  bookingId: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  message: string;
  attempts: number;
  retryStep: number;
}

/** Where a message goes after an attempt. */
export type NotificationOutcome =
  | {
      status: 'sent';
      /** What was told, when the message was written when sent (an occurrence notice). */ kind?: NotificationKind;
    }
  | { status: 'failed'; error: string }
  | { status: 'pending'; error: string; dueAt: Instant };

export interface NotificationQueue {
  /**
   * Claims due messages of the channel in one short transaction: each holder's oldest due first,
   * an account's holders in turn, every account's first before any account's second; rows another
   * worker holds are passed over (PostgreSQL), and each claimed row is kept from others until
   * `leaseUntil`. A calendar's writes, and an e-mail recipient's occurrence notices of one
   * occurrence, are claimed one at a time, in the order written.
   */
  claimDue(request: {
    channel: NotificationChannel;
    now: Instant;
    leaseUntil: Instant;
    limit: number;
  }): Promise<NotificationJob[]>;
  /** Records an attempt and moves the message on. */
  recordAttempt(id: string, outcome: NotificationOutcome, now: Instant): Promise<void>;
  /** Records how the last write to the calendar source went: its `lastWriteError`, null when it succeeded. */
  recordCalendarWrite(sourceId: string, error: string | null): Promise<void>;
  /** Removes a claimed message that had nothing to tell (an occurrence notice): it never reached anyone. */
  discard(id: string): Promise<void>;
  /** Gives claimed messages back (on shutdown) so the next worker need not wait for the lease. */
  release(ids: readonly string[]): Promise<void>;
  /** Messages of the channel still to be sent, due or waiting for a retry (`/metrics`). */
  countPending(channel: NotificationChannel): Promise<number>;
}
