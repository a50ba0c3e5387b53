import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Holds (contract §9) are rows of `bookings` with status `held` and an `expires_at`: they occupy
 * time exactly like confirmed bookings, so the one thing that keeps bookings apart (PostgreSQL's
 * exclusion constraint; SQLite's single writer and the same overlap reads) keeps bookings and
 * holds apart too, with no second table whose rows a race could slip between.
 *
 * The partial indexes and the constraint name the occupying statuses with one literal text,
 * `status in ('confirmed', 'held')`, which the queries repeat word for word: SQLite uses a partial
 * index only when the query's terms contain the index's own term.
 */
export default function migration(engine: Engine): Migration {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('bookings').addColumn('expires_at', instant).execute();

      if (engine === 'postgres') {
        await sql`alter table bookings drop constraint bookings_confirmed_no_overlap`.execute(db);
        await sql`
        alter table bookings add constraint bookings_occupying_no_overlap
        exclude using gist (holder_id with =, int8range(occupied_start, occupied_end) with &&)
        where (status in ('confirmed', 'held'))`.execute(db);
      }

      // Overlap reads (bookings and slots): the covering index of 0003, now with holds. `status`
      // is in it too: SQLite checks an IN term again, even one the index's own predicate implies,
      // and without the column it would read every row from the table.
      await db.schema.dropIndex('bookings_confirmed_occupancy').execute();
      await sql`
      create index bookings_occupying on bookings
        (holder_id, occupied_start, occupied_end, start_at, event_type_id, id, expires_at, status)
      where status in ('confirmed', 'held')`.execute(db);
      // Retention: expired holds by age.
      await sql`create index bookings_held_by_expiry on bookings (expires_at, id) where status = 'held'`.execute(db);
    },
  };
}
