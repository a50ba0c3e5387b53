// compiledOnce: a hot query's SQL is compiled once per engine and run with each call's arguments.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/storage/kysely/compiled-once.js';
import type { Database } from '../../src/storage/schema.js';
import { openTestStore, testStoreKind, type TestStore } from '../support/databases.js';
import { at, newId } from './records.js';

let dir: string;
let testStore: TestStore;
let db: Kysely<Database>;
const engine = testStoreKind();

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-compiled-once-'));
  testStore = await openTestStore(dir);
  db = new Kysely<Database>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: new SQLite(testStore.databaseUrl.slice('sqlite:'.length)) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: testStore.databaseUrl, max: 1 }) }),
  });
  for (const name of ['alice', 'bob']) {
    await db
      .insertInto('holders')
      .values({ id: `hdr_${name}`, name, handle: name, created_at: at('2026-01-01T00:00:00Z') })
      .execute();
  }
});

afterEach(async () => {
  await db.destroy();
  await testStore.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('compiledOnce', () => {
  it('when the query is run again with other arguments, then each run answers for its own arguments', async () => {
    const namesAfter = compiledOnce((kysely, id, createdBefore) =>
      kysely
        .selectFrom('holders')
        .select('name')
        .where('id', '=', id!)
        .where('created_at', '<', createdBefore as unknown as number),
    );
    const later = at('2026-02-01T00:00:00Z');
    expect(await namesAfter(db, engine, 'hdr_alice', later)).toEqual([{ name: 'alice' }]);
    expect(await namesAfter(db, engine, 'hdr_bob', later)).toEqual([{ name: 'bob' }]);
    expect(await namesAfter(db, engine, 'hdr_bob', at('2025-01-01T00:00:00Z'))).toEqual([]);
    expect(await namesAfter(db, engine, newId('hdr'), later)).toEqual([]);
  });

  it('when the query binds its arguments out of order, then its first run fails instead of binding them wrongly', async () => {
    const swapped = compiledOnce((kysely, id, name) =>
      kysely.selectFrom('holders').select('id').where('name', '=', name!).where('id', '=', id!),
    );
    await expect(swapped(db, engine, 'hdr_alice', 'alice')).rejects.toThrow(/bind its 2 arguments once each, in order/);
  });

  it('when the query binds a value of its own, then its first run fails (constants go in as literals)', async () => {
    const bound = compiledOnce((kysely, id) =>
      kysely.selectFrom('holders').select('id').where('id', '=', id!).where('name', '!=', 'nobody'),
    );
    await expect(bound(db, engine, 'hdr_alice')).rejects.toThrow(/in order/);
    const literal = compiledOnce((kysely, id) =>
      kysely.selectFrom('holders').select('id').where('id', '=', id!).where('name', '!=', sql.lit('nobody')),
    );
    expect(await literal(db, engine, 'hdr_alice')).toEqual([{ id: 'hdr_alice' }]);
  });
});
