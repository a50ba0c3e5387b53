// The occupying statuses are written once (src/storage/kysely/occupying.ts) and used by the
// queries; migration 0006 wrote them into the occupancy index and PostgreSQL's exclusion
// constraint, and its text stays as it ran. These read the definitions the live database holds
// and fail when the queries' predicate is no longer theirs: SQLite would stop using the partial
// index (it needs the index's term word for word), PostgreSQL the constraint's GiST index.
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect, it } from 'vitest';
import { OCCUPIED_RANGE, OCCUPYING_STATUSES } from '../../src/storage/kysely/occupying.js';
import { testStoreKind } from '../support/databases.js';
import { testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

it.runIf(testStoreKind() === 'sqlite')(
  'when SQLite holds the occupancy index, then its predicate is the queries’ word for word',
  () => {
    const db = new Database(testStore.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const { sql } = db.prepare("select sql from sqlite_master where name = 'bookings_occupying'").get() as {
        sql: string;
      };
      expect(sql.trimEnd().endsWith(`where ${OCCUPYING_STATUSES}`), sql).toBe(true);
    } finally {
      db.close();
    }
  },
);

it.runIf(testStoreKind() === 'postgres')(
  'when PostgreSQL holds the exclusion constraint and the occupancy index, then they are built on the queries’ predicate and range',
  async () => {
    const client = new pg.Client({ connectionString: testStore.databaseUrl });
    await client.connect();
    try {
      // PostgreSQL keeps definitions in its own normal form: the expected ones are made by it too,
      // from the queries' texts, on a scratch copy of the table.
      await client.query('begin');
      await client.query('create temp table occupying_probe (like bookings)');
      await client.query(
        `alter table occupying_probe add constraint probe exclude using gist (holder_id with =, ${OCCUPIED_RANGE} with &&) where (${OCCUPYING_STATUSES})`,
      );
      await client.query(`create index probe_index on occupying_probe (holder_id) where ${OCCUPYING_STATUSES}`);
      const definitions = await client.query<{ name: string; definition: string }>(
        `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
           where conname in ('bookings_occupying_no_overlap', 'probe')
         union all
         select c.relname, pg_get_expr(i.indpred, i.indrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
           where c.relname in ('bookings_occupying', 'probe_index')`,
      );
      const of = (name: string) => definitions.rows.find((row) => row.name === name)?.definition;
      expect(of('bookings_occupying_no_overlap')).toBeDefined();
      expect(of('bookings_occupying_no_overlap')).toBe(of('probe'));
      expect(of('bookings_occupying')).toBeDefined();
      expect(of('bookings_occupying')).toBe(of('probe_index'));
    } finally {
      await client.query('rollback');
      await client.end();
    }
  },
);
