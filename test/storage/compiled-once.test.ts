// compiledOnce: a hot query's SQL is compiled once per engine and run with each call's arguments.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledOnce, compiledPerCount } from '../../src/storage/kysely/compiled-once.js';
import type { Database } from '../../src/storage/schema.js';
import type { EngineTraits } from '../../src/storage/kysely/engine-traits.js';
import { openTestStore, testStoreKind, type TestStore } from '../support/databases.js';
import { at, newId } from './records.js';

let dir: string;
let testStore: TestStore;
let db: Kysely<Database>;
const engine = testStoreKind();
/** What the queries here use of the engine's traits: its name. */
const traits = { name: engine } as EngineTraits;

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
    const created = at('2026-01-01T00:00:00Z');
    await db
      .insertInto('accounts')
      .values({ id: `acc_${name}`, name, handle: name, created_at: created, updated_at: created })
      .execute();
    await db
      .insertInto('holders')
      .values({
        id: `hdr_${name}`,
        account_id: `acc_${name}`,
        name,
        handle: name,
        created_at: created,
        updated_at: created,
      })
      .execute();
  }
});

afterEach(async () => {
  await db.destroy();
  await testStore.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('compiledOnce', () => {
  const later = at('2026-02-01T00:00:00Z');
  const namesAfter = compiledOnce<{ id: string; createdBefore: number }>()((kysely, param) =>
    kysely
      .selectFrom('holders')
      .select('name')
      .where('id', '=', param('id'))
      .where('created_at', '<', param('createdBefore')),
  );

  it('when the query is run again with other arguments, then each run answers for its own arguments', async () => {
    expect(await namesAfter(db, traits, { id: 'hdr_alice', createdBefore: later })).toEqual([{ name: 'alice' }]);
    expect(await namesAfter(db, traits, { createdBefore: later, id: 'hdr_bob' })).toEqual([{ name: 'bob' }]);
    expect(await namesAfter(db, traits, { id: 'hdr_bob', createdBefore: at('2025-01-01T00:00:00Z') })).toEqual([]);
    expect(await namesAfter(db, traits, { id: newId('hdr'), createdBefore: later })).toEqual([]);
  });

  it('when the query binds a parameter twice, or its parameters out of their declared order, then each place gets its own value', async () => {
    const namedOrHandled = compiledOnce<{ handle: string; name: string }>()((kysely, param) =>
      kysely
        .selectFrom('holders')
        .select('id')
        .where((eb) => eb.or([eb('name', '=', param('name')), eb('handle', '=', param('name'))]))
        .where('handle', '=', param('handle')),
    );
    expect(await namedOrHandled(db, traits, { handle: 'bob', name: 'bob' })).toEqual([{ id: 'hdr_bob' }]);
    expect(await namedOrHandled(db, traits, { handle: 'bob', name: 'alice' })).toEqual([]);
  });

  it('when the query never binds one of its parameters, then its first run fails instead of ignoring it', async () => {
    const unbound = compiledOnce<{ id: string; name: string }>()((kysely, param) =>
      kysely.selectFrom('holders').select('id').where('id', '=', param('id')),
    );
    await expect(unbound(db, traits, { id: 'hdr_alice', name: 'alice' })).rejects.toThrow(/never binds name/);
  });

  it('when the query binds a value of its own, then its first run fails (constants go in as literals)', async () => {
    const bound = compiledOnce<{ id: string }>()((kysely, param) =>
      kysely.selectFrom('holders').select('id').where('id', '=', param('id')).where('name', '!=', 'nobody'),
    );
    await expect(bound(db, traits, { id: 'hdr_alice' })).rejects.toThrow(/binds a value that is no parameter/);
    const literal = compiledOnce<{ id: string }>()((kysely, param) =>
      kysely.selectFrom('holders').select('id').where('id', '=', param('id')).where('name', '!=', sql.lit('nobody')),
    );
    expect(await literal(db, traits, { id: 'hdr_alice' })).toEqual([{ id: 'hdr_alice' }]);
  });

  // Checked by `npm run typecheck`, which compiles test/: an `@ts-expect-error` line that compiles fails it.
  it('when a parameter is misnamed, given a value of another type (two swapped) or passed by position, then the code does not compile', () => {
    const neverRun = () => [
      compiledOnce<{ id: string }>()((kysely, param) =>
        // @ts-expect-error: the query names a parameter it does not declare
        kysely.selectFrom('holders').select('id').where('id', '=', param('holderId')),
      ),
      compiledOnce<{ id: string; createdBefore: number }>()((kysely, param) =>
        // @ts-expect-error: a string parameter bound where an instant goes
        kysely.selectFrom('holders').select('id').where('created_at', '<', param('id')),
      ),
      // @ts-expect-error: two arguments swapped
      namesAfter(db, traits, { id: later, createdBefore: 'hdr_alice' }),
      // @ts-expect-error: a misnamed argument
      namesAfter(db, traits, { holderId: 'hdr_alice', createdBefore: later }),
      // @ts-expect-error: arguments by position
      namesAfter(db, traits, 'hdr_alice', later),
    ];
    expect(neverRun).toBeTypeOf('function');
  });
});

describe('compiledPerCount', () => {
  const created = at('2026-01-01T00:00:00Z');
  const holderRows = (names: string[]) =>
    names.map((name) => ({ id: `hdr_${name}`, name, handle: name, created_at: created, updated_at: created }));
  const insertHolders = compiledPerCount<{
    id: string;
    name: string;
    handle: string;
    created_at: number;
    updated_at: number;
  }>(3)((kysely, rowParam, count) =>
    kysely
      .insertInto('holders')
      .values(
        Array.from({ length: count }, (_, index) => ({
          id: rowParam(index, 'id'),
          account_id: sql.lit('acc_alice'),
          name: rowParam(index, 'name'),
          handle: rowParam(index, 'handle'),
          created_at: rowParam(index, 'created_at'),
          updated_at: rowParam(index, 'updated_at'),
        })),
      )
      .returning(['id', 'name']),
  );

  it('when rows of different counts are inserted, then each run writes its own rows, each value in its own row', async () => {
    expect(await insertHolders(db, traits, holderRows(['carol', 'dave']))).toEqual([
      { id: 'hdr_carol', name: 'carol' },
      { id: 'hdr_dave', name: 'dave' },
    ]);
    expect(await insertHolders(db, traits, holderRows(['erin']))).toEqual([{ id: 'hdr_erin', name: 'erin' }]);
    expect(await insertHolders(db, traits, holderRows(['frank', 'grace']))).toEqual([
      { id: 'hdr_frank', name: 'frank' },
      { id: 'hdr_grace', name: 'grace' },
    ]);
    const stored = await db
      .selectFrom('holders')
      .select(['id', 'handle'])
      .where('account_id', '=', 'acc_alice')
      .execute();
    expect(stored.map((row) => `${row.id}=${row.handle}`).sort()).toEqual([
      'hdr_alice=alice',
      'hdr_carol=carol',
      'hdr_dave=dave',
      'hdr_erin=erin',
      'hdr_frank=frank',
      'hdr_grace=grace',
    ]);
  });

  it('when more rows are given than it compiles, or none, then it refuses them instead of writing part', async () => {
    await expect(insertHolders(db, traits, holderRows(['h', 'i', 'j', 'k']))).rejects.toThrow(/4 rows, where 1 to 3/);
    await expect(insertHolders(db, traits, [])).rejects.toThrow(/0 rows/);
    expect(await db.selectFrom('holders').select('id').where('id', 'in', ['hdr_h', 'hdr_i']).execute()).toEqual([]);
  });

  it('when the query leaves a value of a row unbound, then its first run fails instead of ignoring it', async () => {
    const namesOnly = compiledPerCount<{ id: string; name: string }>(2)((kysely, rowParam, count) =>
      kysely
        .selectFrom('holders')
        .select('id')
        .where(
          'id',
          'in',
          Array.from({ length: count }, (_, index) => rowParam(index, 'id')),
        ),
    );
    await expect(namesOnly(db, traits, [{ id: 'hdr_alice', name: 'alice' }])).rejects.toThrow(/never binds 0:name/);
  });
});
