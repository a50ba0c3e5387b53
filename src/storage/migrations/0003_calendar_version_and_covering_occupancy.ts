import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

export default function migration(engine: Engine): Migration {
  // Epoch milliseconds need 64 bits: SQLite's integer has them, PostgreSQL's is 32-bit.
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      // Slot queries and booking checks read only these columns of confirmed bookings: from the
      // index alone, without a table lookup per booking in the bounded range.
      await db.schema.dropIndex('bookings_confirmed_occupancy').execute();
      await db.schema
        .createIndex('bookings_confirmed_occupancy')
        .on('bookings')
        .columns(['holder_id', 'occupied_start', 'occupied_end', 'start_at', 'event_type_id', 'id'])
        .where(sql.ref('status'), '=', 'confirmed')
        .execute();

      // A version of everything that decides a holder's slots, changed in the same transaction
      // as the change itself, by the database: whatever writes it, a cache of derived data
      // (compiled availability, event types, bookings) is valid exactly while it is unchanged.
      await db.schema
        .alterTable('holders')
        .addColumn('calendar_version', instant, (c) => c.notNull().defaultTo(0))
        .execute();
      const tables = ['event_types', 'availabilities', 'bookings'];
      if (engine === 'postgres') {
        await sql`
        create function bump_calendar_version() returns trigger language plpgsql as $$
        begin
          update holders set calendar_version = calendar_version + 1
          where id = case when tg_op = 'DELETE' then old.holder_id else new.holder_id end;
          return null;
        end $$`.execute(db);
        for (const table of tables) {
          await sql`
          create trigger ${sql.raw(`${table}_calendar_version`)}
          after insert or update or delete on ${sql.table(table)}
          for each row execute function bump_calendar_version()`.execute(db);
        }
      } else {
        for (const table of tables) {
          for (const [operation, row] of [
            ['insert', 'new'],
            ['update', 'new'],
            ['delete', 'old'],
          ] as const) {
            await sql`
            create trigger ${sql.raw(`${table}_calendar_version_${operation}`)}
            after ${sql.raw(operation)} on ${sql.table(table)}
            begin
              update holders set calendar_version = calendar_version + 1 where id = ${sql.raw(row)}.holder_id;
            end`.execute(db);
          }
        }
      }
    },
  };
}
