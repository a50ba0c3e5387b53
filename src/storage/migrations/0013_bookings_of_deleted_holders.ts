import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * PostgreSQL: a booking or hold written for a holder whose deletion committed while it was being
 * decided is refused at its commit. The decision read the holder's event type before the deletion
 * committed, and its insert does not conflict with anything the deletion locks; but its commit
 * bumps the holder's calendar version (migration 0004), and that update waits for the deletion's
 * row lock and then sees it. SQLite decides in one write transaction after the deletion's, and
 * reads the deleted event type as gone.
 */
export const HOLDER_DELETED_SQLSTATE = 'SW001';

export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      await sql`
        create or replace function bump_calendar_version() returns trigger language plpgsql as $$
        begin
          update holders set calendar_version = calendar_version + 1
          where id = case when tg_op = 'DELETE' then old.holder_id else new.holder_id end;
          -- Nested: only bookings have a status, and a condition is not cut short.
          if tg_table_name = 'bookings' and tg_op <> 'DELETE' then
            if new.status in ('confirmed', 'held')
               and exists (select 1 from holders where id = new.holder_id and deleted_at is not null) then
              raise exception 'holder % was deleted', new.holder_id using errcode = '${sql.raw(HOLDER_DELETED_SQLSTATE)}';
            end if;
          end if;
          return null;
        end $$`.execute(db);
    },
  };
}
