import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema.js';

export default function migration(engine: Engine): Migration {
  // Epoch milliseconds need 64 bits: SQLite's integer has them, PostgreSQL's is 32-bit.
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', 'text')
        .addColumn('created_at', instant, (c) => c.notNull())
        .addColumn('expires_at', instant, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('window_start', instant, (c) => c.notNull())
        .addColumn('requests', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_windows_pk', ['api_key_id', 'window_start'])
        .execute();
    },
  };
}
