// The range PostgreSQL's exclusion constraint keeps apart is written once
// (src/storage/kysely/occupying.ts) and named by the overlap read; migration 0015 wrote it into
// the constraint, and its text stays as it ran. This reads the definition the live database holds
// and fails when the read's range is no longer the constraint's (PostgreSQL would stop using its
// GiST index for the read). On SQLite, the overlap read must be answered from the occupancy index
// alone.
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect, it } from 'vitest';
import { OCCUPIED_RANGE } from '../../src/storage/kysely/occupying.js';
import { testStoreKind } from '../support/databases.js';
import { testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

it.runIf(testStoreKind() === 'sqlite')(
  'when SQLite reads a holder’s occupancies, then it seeks the covering occupancy index',
  () => {
    const db = new Database(testStore.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const plan = db
        .prepare(
          `explain query plan select booking_id, event_type_id, start_at, occupied_start, occupied_end, expires_at
             from occupancies where holder_id = ? and occupied_start >= ? and occupied_start < ?`,
        )
        .all('hdr_x', 0, 1) as Array<{ detail: string }>;
      expect(plan.map((step) => step.detail).join('\n')).toMatch(
        /SEARCH occupancies USING COVERING INDEX occupancies_by_holder \(holder_id=\? AND occupied_start>\? AND occupied_start<\?\)/,
      );
    } finally {
      db.close();
    }
  },
);

it.runIf(testStoreKind() === 'postgres')(
  'when PostgreSQL holds the exclusion constraint on occupancies, then it is built on the overlap read’s range',
  async () => {
    const client = new pg.Client({ connectionString: testStore.databaseUrl });
    await client.connect();
    try {
      // PostgreSQL keeps definitions in its own normal form: the expected one is made by it too,
      // from the read's text, on a scratch copy of the table.
      await client.query('begin');
      await client.query('create temp table occupying_probe (like occupancies)');
      await client.query(
        // Rows of one occurrence (seats, migration 0018) may overlap: its third part.
        `alter table occupying_probe add constraint probe exclude using gist (holder_id with =, ${OCCUPIED_RANGE} with &&, (coalesce(occurrence, booking_id)) with <>)`,
      );
      const definitions = await client.query<{ name: string; definition: string }>(
        `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
           where conname in ('occupancies_no_overlap', 'probe')`,
      );
      const of = (name: string) => definitions.rows.find((row) => row.name === name)?.definition;
      expect(of('occupancies_no_overlap')).toBeDefined();
      expect(of('occupancies_no_overlap')).toBe(of('probe'));
    } finally {
      await client.query('rollback');
      await client.end();
    }
  },
);
