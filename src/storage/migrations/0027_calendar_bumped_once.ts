import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';
import { HOLDER_DELETED_SQLSTATE } from './0013_bookings_of_deleted_holders.js';

/**
 * PostgreSQL: a transaction bumps a holder's calendar version once, however many of its rows it
 * changes. The deferred trigger (0004, 0015) ran for every row at commit, each an update of the
 * holder's row: a batch of 12 seats (`BookingBatches`) updated it 12 times, each a new version of
 * the row and its WAL. Measured on the seats bench part (PostgreSQL's logged durations), the
 * server's commits took 1.02–1.03 ms against 1.08–1.32 ms (docs/performance.md, "Issue 29,
 * session 21"). `calendar_bumped_by` is the transaction that last bumped the version: a row
 * changed by another statement of the transaction (its `changed_by`, a key revoked) says nothing
 * about the calendar, so it has a column of its own.
 *
 * A skipped bump waits for nothing: the row's lock is this transaction's since its first bump,
 * so a holder's deletion cannot commit between it and the deletion check below, which stays per
 * row. SQLite has one writer at a time and keeps its triggers.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      await sql`alter table holders add column calendar_bumped_by xid8 not null default '0'`.execute(db);
      await sql`
        create or replace function bump_calendar_version() returns trigger language plpgsql as $$
        begin
          update holders set calendar_version = calendar_version + 1, calendar_bumped_by = pg_current_xact_id()
          where id = case when tg_op = 'DELETE' then old.holder_id else new.holder_id end
            and calendar_bumped_by <> pg_current_xact_id();
          -- Nested: only a new occupancy is refused, and a condition is not cut short.
          if tg_table_name = 'occupancies' and tg_op = 'INSERT' then
            if exists (select 1 from holders where id = new.holder_id and deleted_at is not null) then
              raise exception 'holder % was deleted', new.holder_id using errcode = '${sql.raw(HOLDER_DELETED_SQLSTATE)}';
            end if;
          end if;
          return null;
        end $$`.execute(db);
    },
  };
}
