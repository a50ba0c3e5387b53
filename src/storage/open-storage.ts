import { resolve } from 'node:path';
import { openPostgresStorage } from './postgres.js';
import { openSqliteStorage } from './sqlite.js';
import type { Storage } from './storage.js';

export const DEFAULT_DATABASE_FILE = './data/slotwise.db';

/** `DATABASE_URL` → store: unset → `./data/slotwise.db`; `sqlite:/path` or `sqlite::memory:` → SQLite; `postgres://…` → PostgreSQL. */
export async function openStorage(
  target: DatabaseTarget,
  postgres: PostgresSettings = DEFAULT_POSTGRES_SETTINGS,
  sqlite: SqliteSettings = DEFAULT_SQLITE_SETTINGS,
): Promise<Storage> {
  if (target.kind === 'postgres') return openPostgresStorage({ connectionString: target.url, ...postgres });
  return openSqliteStorage({
    filename: target.filename,
    maxSizeBytes: sqlite.maxSizeMb > 0 ? sqlite.maxSizeMb * 1024 * 1024 : undefined,
  });
}

export type DatabaseTarget = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

export interface PostgresSettings {
  poolSize: number;
  statementTimeoutMs: number;
}

export const DEFAULT_POSTGRES_SETTINGS: PostgresSettings = { poolSize: 10, statementTimeoutMs: 10_000 };

export interface SqliteSettings {
  /** The most the database file may hold, in MiB; 0 = as much as the disk takes. */
  maxSizeMb: number;
}

export const DEFAULT_SQLITE_SETTINGS: SqliteSettings = { maxSizeMb: 0 };

export function parseDatabaseUrl(databaseUrl: string | undefined): DatabaseTarget {
  if (databaseUrl === undefined || databaseUrl === '')
    return { kind: 'sqlite', filename: resolve(DEFAULT_DATABASE_FILE) };
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === ':memory:') return { kind: 'sqlite', filename: ':memory:' };
    if (path === '') throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/slotwise.db');
    return { kind: 'sqlite', filename: resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return { kind: 'postgres', url: databaseUrl };
  throw new Error(
    `DATABASE_URL must be postgres://…, sqlite:/path/file.db or sqlite::memory:; got ${databaseUrl.split(':')[0]}:…`,
  );
}
