import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/** The channel every PostgreSQL instance listens on (see `PostgresChangeFeed`). */
export const CHANGES_CHANNEL = 'slotwise_changes';

export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL: every commit that changes what an instance may hold in memory about a holder
      // (its keys; its calendar, whose version every calendar change bumps on the holder's row,
      // at commit) tells every listening instance which holder, so that they can keep reusing
      // what they read until then. A notification is sent only if its transaction commits, and
      // one transaction's identical notifications are sent once. SQLite instances learn of
      // other processes' commits from `data_version` instead.
      if (engine !== 'postgres') return;
      await sql`
        create function announce_holder_change() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, old.holder_id);
          else
            perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, new.holder_id);
          end if;
          return null;
        end $$`.execute(db);
      await sql`
        create function announce_holder_row_change() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, old.id);
          else
            perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, new.id);
          end if;
          return null;
        end $$`.execute(db);
      // An empty payload: everything may have changed (a `truncate` fires no row triggers).
      await sql`
        create function announce_everything_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, '');
          return null;
        end $$`.execute(db);
      for (const table of ['api_keys', 'holders']) {
        await sql`
          create trigger ${sql.raw(`${table}_truncation_announced`)} after truncate on ${sql.table(table)}
          for each statement execute function announce_everything_changed()`.execute(db);
      }
      await sql`
        create trigger api_keys_announced after insert or update or delete on api_keys
        for each row execute function announce_holder_change()`.execute(db);
      await sql`
        create trigger holders_announced after insert or update or delete on holders
        for each row execute function announce_holder_row_change()`.execute(db);
    },
  };
}
