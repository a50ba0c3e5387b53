import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * Calendar sources (contract §11) and the busy time they contribute.
 *
 * A source's address and credentials are one sealed text (`address`: AES-256-GCM under a key
 * derived from SLOTWISE_SECRET, bound to the source's id); `shown_url` is what the API may show.
 * `lease_until` is the claim of the instance syncing it: one at a time, on any number of
 * instances. `busy_digest` names the busy set last stored, so a sync that reads the same busy time
 * writes nothing and leaves the holder's calendar version (and every cache) alone.
 *
 * Busy intervals of one source never overlap (the sync merges them), but those of different
 * sources may, so the bookings' trick (ends ascend with starts) does not hold. Instead an interval
 * says whether it `spans_days` (longer than a day): an overlap read seeks the short ones by start
 * within a day before the range, and scans the long ones, which are few (vacations, conferences).
 */
export default function migration(engine: Engine): Migration {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('calendar_sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder_id', 'text', (c) => c.notNull().references('holders.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('shown_url', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('last_synced_at', instant)
        .addColumn('last_error', 'text')
        .addColumn('failing', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sync_state', 'text')
        .addColumn('busy_digest', 'text')
        .addColumn('next_sync_at', instant, (c) => c.notNull())
        .addColumn('lease_until', instant)
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('updated_at', instant, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('calendar_sources_of_holder')
        .on('calendar_sources')
        .columns(['holder_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('calendar_sources_due')
        .on('calendar_sources')
        .columns(['next_sync_at', 'id'])
        .execute();

      await db.schema
        .createTable('busy_intervals')
        .addColumn('source_id', 'text', (c) => c.notNull().references('calendar_sources.id').onDelete('cascade'))
        .addColumn('holder_id', 'text', (c) => c.notNull())
        .addColumn('start_at', instant, (c) => c.notNull())
        .addColumn('end_at', instant, (c) => c.notNull())
        .addColumn('spans_days', 'integer', (c) => c.notNull())
        .execute();
      // Overlap reads and listing, both from the index alone.
      await db.schema
        .createIndex('busy_intervals_of_holder')
        .on('busy_intervals')
        .columns(['holder_id', 'spans_days', 'start_at', 'end_at', 'source_id'])
        .execute();
      // A sync replaces one source's intervals.
      await db.schema.createIndex('busy_intervals_of_source').on('busy_intervals').columns(['source_id']).execute();
    },
  };
}
