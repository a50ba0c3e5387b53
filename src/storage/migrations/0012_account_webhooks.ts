import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Contract §12, account webhooks:
 * - An account webhook (`holder_id` null) hears every event of its account, so every event of a
 *   holder looks its account's webhooks up beside the holder's own, on the booking path: a partial
 *   index holds just the account webhooks, so that lookup never reads the webhooks of every holder
 *   of the account (`webhooks_by_account` does, for the account-scope list).
 * - An event may be the account's own, with no holder: the test event of an account webhook.
 *   `webhook_events.holder_id` becomes nullable; SQLite cannot drop a `not null`, so there the
 *   table is rebuilt (made anew beside the old one, filled, the old one dropped, the new one
 *   renamed), with foreign keys off and in one transaction, as migration 0011 rebuilt its tables.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('webhooks_of_account')
        .on('webhooks')
        .columns(['account_id', 'created_at', 'id'])
        .where(sql.ref('holder_id'), 'is', null)
        .execute();
      if (engine === 'postgres') {
        await sql`alter table webhook_events alter column holder_id drop not null`.execute(db);
        return;
      }
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute(rebuildEventsOnSqlite);
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0)
          throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

async function rebuildEventsOnSqlite(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_events_0012')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('holder_id', 'text', (c) => c.references('holders.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into webhook_events_0012 (id, account_id, holder_id, type, payload, created_at)
    select id, account_id, holder_id, type, payload, created_at from webhook_events`.execute(db);
  await sql`drop table webhook_events`.execute(db);
  // The deliveries' foreign key names webhook_events: it holds again once the new table has the name.
  await sql`alter table webhook_events_0012 rename to webhook_events`.execute(db);
  await db.schema.createIndex('webhook_events_by_age').on('webhook_events').column('created_at').execute();
}
