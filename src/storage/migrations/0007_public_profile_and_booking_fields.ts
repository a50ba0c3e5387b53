import { sql, type Kysely, type Migration } from 'kysely';
import { handleFrom } from '../../domain/holder.js';
import { firstFreeSlug } from '../../domain/event-type.js';
import type { Engine } from '../schema.js';

/**
 * Contract §10: a holder's public handle and display name and the generation of its calendar
 * feed link (rotating it makes the old link fail); an event type's `public` flag and questions; a
 * booking's answers, metadata and source. Existing holders get handles derived from their names.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('holders').addColumn('handle', 'text').execute();
      await db.schema.alterTable('holders').addColumn('display_name', 'text').execute();
      await db.schema
        .alterTable('holders')
        .addColumn('feed_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const holders = await db
        .selectFrom('holders')
        .select(['id', 'name'])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const taken = new Set<string>();
      for (const holder of holders) {
        const handle = firstFreeSlug(handleFrom(holder.name), taken);
        taken.add(handle);
        await db.updateTable('holders').set({ handle }).where('id', '=', holder.id).execute();
      }
      await db.schema.createIndex('holders_handle').on('holders').column('handle').unique().execute();

      await db.schema
        .alterTable('event_types')
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('questions', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();

      await db.schema
        .alterTable('bookings')
        .addColumn('answers', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .alterTable('bookings')
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      // Bookings by start, in every status: a calendar feed shows cancelled ones too, and a list of
      // confirmed ones filters on the indexed status. It replaces the confirmed-only index, so a
      // booking still updates as many indexes as before.
      await db.schema.dropIndex('bookings_confirmed_start').execute();
      await sql`create index bookings_by_start on bookings (holder_id, start_at, id, status) where status <> 'held'`.execute(
        db,
      );
      // A hold made on a booking page: a digest of the browser session's cookie, so a session
      // holds one time at once and a holder's page holds can be counted (contract §10).
      await db.schema.alterTable('bookings').addColumn('page_session', 'text').execute();
      await db.schema
        .alterTable('bookings')
        .addColumn('source', 'text', (c) => c.notNull().defaultTo(sql.lit('api')))
        .execute();
    },
  };
}
