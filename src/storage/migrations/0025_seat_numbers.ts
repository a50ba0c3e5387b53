import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §15, seats without a queue: each seat of an occurrence holds a number (`occupancies.seat`,
 * 1 to the event type's seats; null for what is not seated), the same on every host of the seat,
 * and no two live rows of one host's occurrence hold the same number (a partial unique index). A
 * seat's decision picks a free number and the write itself refuses a number a concurrent seat
 * took, as the exclusion constraint refuses overlapping time: concurrent seats of one occurrence
 * commit side by side instead of one after another under a lock (app/booking-decision.ts).
 *
 * The seats stored before are numbered in their occurrence by booking id, per host: a seat's rows
 * on several hosts (a collective type's) take the same number, since every host holds every seat.
 * The covering occupancy indexes gain the number, which the decision reads with the occupancies.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('occupancies').addColumn('seat', 'integer').execute();
      await db.schema
        .createIndex('occupancies_one_seat_each')
        .unique()
        .on('occupancies')
        .columns(['holder_id', 'occurrence', 'seat'])
        .where(sql.ref('occurrence'), 'is not', null)
        .execute();
      // The occupancy reads the decisions make from these indexes alone now also tell the seats' numbers.
      await sql`drop index occupancies_by_holder`.execute(db);
      await sql`
        create index occupancies_by_holder on occupancies
          (holder_id, occupied_start, occupied_end, start_at, event_type_id, booking_id, expires_at, occurrence, seat)`.execute(
        db,
      );
      await sql`drop index occupancies_by_event_type`.execute(db);
      await sql`
        create index occupancies_by_event_type on occupancies
          (event_type_id, start_at, booking_id, holder_id, expires_at, occurrence, seat)`.execute(db);
      // Numbered last: on PostgreSQL the update leaves the foreign keys' trigger events pending, and
      // an index cannot be made on a table that has some in the same transaction.
      await sql`
        update occupancies set seat = (
          select numbered.seat from (
            select booking_id, holder_id,
              row_number() over (partition by holder_id, occurrence order by booking_id) as seat
            from occupancies where occurrence is not null
          ) numbered
          where numbered.booking_id = occupancies.booking_id and numbered.holder_id = occupancies.holder_id
        )
        where occurrence is not null`.execute(db);
    },
  };
}
