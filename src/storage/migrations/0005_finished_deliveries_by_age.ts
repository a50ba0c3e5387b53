import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/**
 * What retention removes, found by index rather than by reading whole tables every round:
 * finished deliveries by age (without the pending ones), and events by age.
 */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('webhook_deliveries_finished')
        .on('webhook_deliveries')
        .columns(['updated_at', 'id'])
        .where(sql.ref('status'), '<>', 'pending')
        .execute();
      await db.schema.createIndex('webhook_events_by_age').on('webhook_events').column('created_at').execute();
    },
  };
}
