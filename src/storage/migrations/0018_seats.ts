import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §15, seats: an event type may take several guests at one time (`event_types.seats`,
 * null for one guest). Each seat is its own booking (or hold) with its own occupancy rows, and the
 * seats of one occurrence occupy their hosts' time together: their rows carry the occurrence
 * (`occupancies.occurrence`: the event type and start, the same for every seat of it; null for
 * what is not seated, whose occurrence is its own booking). PostgreSQL's exclusion constraint then
 * keeps apart the rows of a host that overlap and belong to different occurrences: seats of one
 * occurrence share its time, anything else still may not. How many seats an occurrence takes is
 * counted under the decision's lock, as the daily cap is (app/booking-decision.ts).
 *
 * The occupancy reads group a host's rows by occurrence, so the indexes they read from alone gain
 * the column. Both columns start null: nothing stored before this migration is seated. On PostgreSQL the
 * constraint is replaced within the migration's transaction, `occupancies` locked against writes
 * by the `alter table`, so no write meets the table without one.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('event_types').addColumn('seats', 'integer').execute();
      await db.schema.alterTable('occupancies').addColumn('occurrence', 'text').execute();
      await sql`drop index occupancies_by_holder`.execute(db);
      await sql`
        create index occupancies_by_holder on occupancies
          (holder_id, occupied_start, occupied_end, start_at, event_type_id, booking_id, expires_at, occurrence)`.execute(
        db,
      );
      await sql`drop index occupancies_by_event_type`.execute(db);
      await sql`
        create index occupancies_by_event_type on occupancies
          (event_type_id, start_at, booking_id, holder_id, expires_at, occurrence)`.execute(db);
      if (engine !== 'postgres') return;
      await sql`alter table occupancies drop constraint occupancies_no_overlap`.execute(db);
      await sql`
        alter table occupancies add constraint occupancies_no_overlap
        exclude using gist (
          holder_id with =,
          int8range(occupied_start, occupied_end) with &&,
          (coalesce(occurrence, booking_id)) with <>
        )`.execute(db);
    },
  };
}
