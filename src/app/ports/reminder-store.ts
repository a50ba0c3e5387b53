// The reminders still to be sent (contract §16), as rows of the store: written and removed in
// the transactions of the bookings they belong to, claimed by the reminder worker when due.
import type { Instant } from '../../domain/instant.js';

/** One reminder of one booking still to be sent, and whose booking it is. */
export interface StoredReminder {
  bookingId: string;
  minutesBefore: number;
  dueAt: Instant;
  accountId: string;
  /** The booking's holder; null for a team booking, which is its account's (contract §14). */
  holderId: string | null;
}

export interface ReminderReads {
  /** Reminders due at `now` (oldest due first), at most `limit`: what a worker may try to claim. */
  dueBy(now: Instant, limit: number): Promise<StoredReminder[]>;
}

export interface ReminderWrites extends ReminderReads {
  /** Stores reminders of one booking (each offset once per booking). */
  insert(reminders: readonly StoredReminder[]): Promise<void>;
  /** Removes every reminder of the booking still to be sent (cancelled or moved away). */
  removeOf(booking: { id: string; holderId: string | null; accountId: string }): Promise<void>;
  /**
   * Of `reminders`, those still stored and due at `now`, locked until the transaction ends where
   * writers run concurrently, passing over those another transaction holds (PostgreSQL `for
   * update skip locked`; SQLite's writers are exclusive): what this transaction alone sends.
   */
  claim(reminders: readonly StoredReminder[], now: Instant): Promise<StoredReminder[]>;
  /** Removes one sent reminder. */
  remove(reminder: StoredReminder): Promise<void>;
}
