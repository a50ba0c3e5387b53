import { resolve } from 'node:path';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './store.js';

export const DEFAULT_DATABASE_FILE = './data/slotwise.db';

/** `DATABASE_URL` → store: unset → `./data/slotwise.db`; `sqlite:/path` or `sqlite::memory:` → SQLite. */
export async function openStore(target: DatabaseTarget): Promise<Store> {
  return openSqliteStore({ filename: target.filename });
}

export type DatabaseTarget = { kind: 'sqlite'; filename: string };

export function parseDatabaseUrl(databaseUrl: string | undefined): DatabaseTarget {
  if (databaseUrl === undefined || databaseUrl === '') return { kind: 'sqlite', filename: resolve(DEFAULT_DATABASE_FILE) };
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === ':memory:') return { kind: 'sqlite', filename: ':memory:' };
    if (path === '') throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/slotwise.db');
    return { kind: 'sqlite', filename: resolve(path) };
  }
  throw new Error(
    `DATABASE_URL must be sqlite:/path/file.db or sqlite::memory: (PostgreSQL support is not built yet); got ${databaseUrl.split(':')[0]}:…`,
  );
}
