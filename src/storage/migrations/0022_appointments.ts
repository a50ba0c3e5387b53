import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16, one appointment, one UID: a booking and the bookings it was rescheduled into are
 * one appointment, named by its first booking's id (`bookings.appointment_id`), and each booking
 * records how often the appointment was moved before it (`appointment_moves`), which its
 * iCalendar SEQUENCE counts. Bookings stored before this rule each had a UID of their own
 * (`<id>@slotwise`) and a SEQUENCE of 0 while confirmed, else 1; each becomes an appointment of its
 * own, moved 0 times, which gives every one of them the same UID and SEQUENCE again
 * (domain/appointment.ts). A chain rescheduled before stays as calendars learnt it: a cancelled
 * event per moved booking beside the new one. Holds (rows of this table too) are their own.
 *
 * `bookings_by_appointment` finds an appointment's bookings: the latest for a guest's `.ics`, and
 * the appointments a calendar source names, so that the holder's own never block it.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('bookings')
        .addColumn('appointment_moves', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      if (engine === 'postgres') {
        await db.schema.alterTable('bookings').addColumn('appointment_id', 'text').execute();
        await sql`update bookings set appointment_id = id`.execute(db);
        await sql`alter table bookings alter column appointment_id set not null`.execute(db);
      } else {
        // SQLite adds a NOT NULL column only with a default; every row gets its own value at once.
        await db.schema
          .alterTable('bookings')
          .addColumn('appointment_id', 'text', (column) => column.notNull().defaultTo(''))
          .execute();
        await sql`update bookings set appointment_id = id`.execute(db);
      }
      await sql`create index bookings_by_appointment on bookings (appointment_id, appointment_moves)`.execute(db);
    },
  };
}
