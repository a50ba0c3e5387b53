import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16, locations: an event type says where its meetings take place
 * (`event_types.location`, JSON) and each booking keeps the one it was made or moved with
 * (`bookings.location`), so a later edit of the event type does not move a meeting that was
 * announced. Both start null: nothing stored before this migration has a location.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('event_types').addColumn('location', 'text').execute();
      await db.schema.alterTable('bookings').addColumn('location', 'text').execute();
    },
  };
}
