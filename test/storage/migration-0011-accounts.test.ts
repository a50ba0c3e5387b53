// Migration 0011 (accounts) on databases as they stand just before it, made here with the
// migrations up to 0010: the cases the fixture of a real old database does not hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { IdGenerator } from '../../src/app/ids.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { createTestDatabase, testStoreKind } from '../support/databases.js';

interface Before0011 {
  /** The database at migration 0010, for rows written as the build before accounts wrote them. */
  db: Kysely<any>;
  /** Closes `db` and opens the database as this build does: migrating it to the latest. */
  open(): Promise<Storage>;
  query(text: string): Promise<Array<Record<string, unknown>>>;
}

const opened: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function databaseBefore0011(): Promise<Before0011> {
  const engine = testStoreKind();
  let db: Kysely<any>;
  let open: () => Promise<Storage>;
  let query: Before0011['query'];
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'slotwise-0011-'));
    const filename = join(dir, 'slotwise.db');
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(filename) }) });
    open = () => openSqliteStorage({ filename });
    query = async (text) => {
      const reader = new Database(filename, { readonly: true });
      try {
        return reader.prepare(text).all() as Array<Record<string, unknown>>;
      } finally {
        reader.close();
      }
    };
    opened.push(async () => rmSync(dir, { recursive: true, force: true }));
  } else {
    const url = await createTestDatabase();
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    open = () => openPostgresStorage({ connectionString: url, poolSize: 2, statementTimeoutMs: 10_000 });
    query = async (text) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const { error } = await migrator.migrateTo('0010_page_hold_clients');
  if (error) throw error;
  return {
    db,
    query,
    async open() {
      await db.destroy();
      const storage = await open();
      opened.unshift(() => storage.close());
      return storage;
    },
  };
}

describe(`migration 0011 (accounts) on a database just before it (${testStoreKind()})`, () => {
  it('when there are no holders, then it makes no account, and a key made afterwards gets its holder an account as usual', async () => {
    const before = await databaseBefore0011();
    const storage = await before.open();

    expect(await before.query('select * from accounts')).toEqual([]);
    const { key } = await createApiKey(
      { store: storage.store, now: () => Date.parse('2026-01-01T00:00:00Z'), ids: new IdGenerator() },
      { accountName: 'Ada L', holderName: 'Ada L', scopes: ['read'], expiresAt: null },
    );
    const accounts = await before.query('select id, name, handle from accounts');
    expect(accounts).toEqual([{ id: key.accountId, name: 'Ada L', handle: 'ada-l' }]);
  });

  it('when holders’ names derive the same handle, then each gets an account of its own, named after it, with handles made distinct in the order the holders were made; their handles and keys stay theirs', async () => {
    const before = await databaseBefore0011();
    const holders = [
      // A handle of its own choosing (PATCH /me): the account's is still derived from the name.
      { id: 'hdr_aaaaaaaaaaaaaaaaaaa1', name: 'Ada L', handle: 'countess', created_at: 1_000 },
      { id: 'hdr_aaaaaaaaaaaaaaaaaaa2', name: 'ada-l', handle: 'ada-l', created_at: 2_000 },
      { id: 'hdr_aaaaaaaaaaaaaaaaaaa3', name: 'ADA L!', handle: 'ada-l-2', created_at: 3_000 },
      // Nothing usable in the name: `holder`, then `holder-2` for one really called that.
      { id: 'hdr_aaaaaaaaaaaaaaaaaaa4', name: '✨', handle: 'holder', created_at: 4_000 },
      { id: 'hdr_aaaaaaaaaaaaaaaaaaa5', name: 'holder', handle: 'holder-2', created_at: 5_000 },
    ];
    await before.db.insertInto('holders').values(holders).execute();
    await before.db
      .insertInto('api_keys')
      .values(
        holders.map((h, i) => ({
          id: `key_aaaaaaaaaaaaaaaaaaa${i + 1}`,
          holder_id: h.id,
          digest: `digest-${i + 1}`,
          scopes: 'read',
          created_at: h.created_at,
        })),
      )
      .execute();
    await before.open();

    const rows = await before.query(
      `select h.id, h.handle, a.name as account, a.handle as account_handle, k.account_id as key_account, h.account_id
         from holders h join accounts a on a.id = h.account_id join api_keys k on k.holder_id = h.id
        order by h.created_at`,
    );
    expect(rows.map(({ id, handle, account, account_handle }) => ({ id, handle, account, account_handle }))).toEqual([
      { id: holders[0]!.id, handle: 'countess', account: 'Ada L', account_handle: 'ada-l' },
      { id: holders[1]!.id, handle: 'ada-l', account: 'ada-l', account_handle: 'ada-l-2' },
      { id: holders[2]!.id, handle: 'ada-l-2', account: 'ADA L!', account_handle: 'ada-l-3' },
      { id: holders[3]!.id, handle: 'holder', account: '✨', account_handle: 'holder' },
      { id: holders[4]!.id, handle: 'holder-2', account: 'holder', account_handle: 'holder-2' },
    ]);
    for (const row of rows) expect(row.key_account).toBe(row.account_id);
    expect(new Set(rows.map((r) => r.account_id)).size).toBe(holders.length);
  });
});
