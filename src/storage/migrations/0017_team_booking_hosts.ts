import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §14, team bookings: a booking of a team event type has no holder (`bookings.holder_id`
 * null) and occupies its hosts' time (`occupancies`, one row per host, while it occupies time).
 * What a host is found by beyond that, in every status and for as long as the booking is kept,
 * is a row per host here, written with the booking and never changed (a booking's hosts are fixed
 * when it is made):
 * - `team_booking_hosts_by_holder`: the team bookings a holder hosts, by start, in any status (its
 *   `GET /bookings` and the account's list filtered by it read the confirmed ones; its calendar
 *   feed shows cancelled and rescheduled ones as cancelled), as `bookings_by_start` finds its own;
 * - `team_booking_hosts_confirmed_by_event_type`: round robin's choice (contract §14) per host of
 *   a type: its confirmed bookings of the type created in the last 30 days (a range of the index,
 *   counted from the index alone), and its latest (one seek from the end), however many bookings
 *   the type had before. `confirmed` is the one thing that changes: 0 once the booking is
 *   cancelled or moved away (`bookings.status` leaves `confirmed` in the same transaction), so the
 *   count reads no booking row.
 * A holder's own bookings have no rows here: their holder finds them, and nothing of the personal
 * booking path writes more. No booking of a team type was ever written before this migration, so
 * there is nothing to fill in.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      const instant = engine === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('team_booking_hosts')
        .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('event_type_id', 'text', (c) => c.notNull())
        .addColumn('start_at', instant, (c) => c.notNull())
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(1))
        .addPrimaryKeyConstraint('team_booking_hosts_pk', ['booking_id', 'holder_id'])
        .execute();
      await sql`create index team_booking_hosts_by_holder on team_booking_hosts (holder_id, start_at, booking_id)`.execute(
        db,
      );
      await sql`create index team_booking_hosts_confirmed_by_event_type on team_booking_hosts (event_type_id, holder_id, created_at) where confirmed = 1`.execute(
        db,
      );
    },
  };
}
