import type { Selectable } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import type { ReminderWrites, StoredReminder } from '../../app/ports/reminder-store.js';
import type { Database } from '../schema.js';
import { Table } from './table.js';

/** The reminders still to be sent (migration 0023), one row per booking and offset. */
export class KyselyReminders extends Table implements ReminderWrites {
  async dueBy(now: Instant, limit: number): Promise<StoredReminder[]> {
    const rows = await this.db
      .selectFrom('booking_reminders')
      .selectAll()
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('booking_id')
      .orderBy('minutes_before')
      .limit(limit)
      .execute();
    return rows.map(toReminder);
  }

  async insert(reminders: readonly StoredReminder[]): Promise<void> {
    if (reminders.length === 0) return;
    for (const reminder of reminders) this.scope.writes(ownerOf(reminder));
    await this.db
      .insertInto('booking_reminders')
      .values(
        reminders.map((r) => ({
          booking_id: r.bookingId,
          minutes_before: r.minutesBefore,
          due_at: r.dueAt,
          account_id: r.accountId,
          holder_id: r.holderId,
        })),
      )
      .execute();
  }

  async removeOf(booking: { id: string; holderId: string | null; accountId: string }): Promise<void> {
    this.scope.writes(booking.holderId ?? booking.accountId);
    await this.db.deleteFrom('booking_reminders').where('booking_id', '=', booking.id).execute();
  }

  async claim(reminders: readonly StoredReminder[], now: Instant): Promise<StoredReminder[]> {
    if (reminders.length === 0) return [];
    const wanted = new Set(reminders.map(keyOf));
    const rows = await this.db
      .selectFrom('booking_reminders')
      .selectAll()
      // One statement text however many bookings (prepared once on PostgreSQL).
      .where(this.engine.oneOf('booking_id', JSON.stringify([...new Set(reminders.map((r) => r.bookingId))])))
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .modifyEnd(this.engine.skippingLocked)
      .execute();
    return rows.map(toReminder).filter((reminder) => wanted.has(keyOf(reminder)));
  }

  async remove(reminder: StoredReminder): Promise<void> {
    this.scope.writes(ownerOf(reminder));
    await this.db
      .deleteFrom('booking_reminders')
      .where('booking_id', '=', reminder.bookingId)
      .where('minutes_before', '=', reminder.minutesBefore)
      .execute();
  }
}

function toReminder(row: Selectable<Database['booking_reminders']>): StoredReminder {
  return {
    bookingId: row.booking_id,
    minutesBefore: row.minutes_before,
    dueAt: Number(row.due_at),
    accountId: row.account_id,
    holderId: row.holder_id,
  };
}

/** Whose rows they are, for the transaction's scope: the holder's, or a team booking's account's. */
function ownerOf(reminder: StoredReminder): string {
  return reminder.holderId ?? reminder.accountId;
}

function keyOf(reminder: Pick<StoredReminder, 'bookingId' | 'minutesBefore'>): string {
  return `${reminder.bookingId} ${reminder.minutesBefore}`;
}
