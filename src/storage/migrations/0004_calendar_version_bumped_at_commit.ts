import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL: a bump takes the holder row's lock until commit. Bumped by the change's
      // own statement, it queued every concurrent booking of a holder from its insert through
      // its remaining round trips and its commit; bumped by a deferred trigger, only through the
      // commit. The version still changes in the transaction that makes the change. SQLite
      // has one writer at a time and keeps its triggers.
      if (engine !== 'postgres') return;
      for (const table of ['event_types', 'availabilities', 'bookings']) {
        const trigger = sql.raw(`${table}_calendar_version`);
        await sql`drop trigger ${trigger} on ${sql.table(table)}`.execute(db);
        await sql`
        create constraint trigger ${trigger}
        after insert or update or delete on ${sql.table(table)}
        deferrable initially deferred
        for each row execute function bump_calendar_version()`.execute(db);
      }
    },
  };
}
