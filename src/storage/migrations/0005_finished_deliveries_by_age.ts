import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema.js';

/** Finished deliveries by age: what retention removes, found without reading the pending ones. */
export default function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('webhook_deliveries_finished')
        .on('webhook_deliveries')
        .columns(['updated_at', 'id'])
        .where(sql.ref('status'), '<>', 'pending')
        .execute();
    },
  };
}
