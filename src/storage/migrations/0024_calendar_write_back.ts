import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §16, the host's own calendar: a CalDAV source may take the holder's bookings
 * (`calendar_sources.write_bookings`, 0 for every source made before), at most one per holder
 * (a partial unique index: two switches at once cannot both win), and shows why its last write
 * failed (`last_write_error`, null when it succeeded).
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('calendar_sources')
        .addColumn('write_bookings', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('calendar_sources').addColumn('last_write_error', 'text').execute();
      await db.schema
        .createIndex('calendar_sources_one_written_per_holder')
        .unique()
        .on('calendar_sources')
        .column('holder_id')
        .where(sql.ref('write_bookings'), '=', 1)
        .execute();
    },
  };
}
