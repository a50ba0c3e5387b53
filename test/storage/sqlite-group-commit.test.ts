// SQLite's group commit on a real file: a transaction is acknowledged only once its writes are
// committed, as another connection to the file (another process, a restarted server) sees them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/app/ports/store.js';
import { openConnection, openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { at, eventTypeRecord, newHolder, newId } from './records.js';

const T0 = at('2026-03-02T00:00:00Z');
let dir: string;
let filename: string;
let storage: Storage;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-group-commit-'));
  filename = join(dir, 'slotwise.db');
  storage = await openSqliteStorage({ filename });
  store = storage.store;
});

afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

it('when concurrent transactions are acknowledged, then another connection to the file already sees each one’s writes', async () => {
  const holder = await store.transaction(async (tx) => {
    const account = await tx.accounts.ensure({ id: newId('acc'), name: 'alice', createdAt: T0 });
    return tx.holders.ensure(...newHolder(account.id, 'alice', T0));
  });
  const observer = new Database(filename, { readonly: true });
  const visibleAtAck: boolean[] = [];
  try {
    const eventTypes = Array.from({ length: 20 }, (_, i) => eventTypeRecord(holder.id, T0, { slug: `type-${i}` }));
    const lookup = observer.prepare('select count(*) as n from event_types where id = ?');
    await Promise.all(
      eventTypes.map((eventType) =>
        store
          .transaction((tx) => tx.eventTypes.insert(eventType))
          // Synchronously, in the acknowledgement itself: nothing else can commit in between.
          .then(() => visibleAtAck.push((lookup.get(eventType.id) as { n: number }).n === 1)),
      ),
    );
  } finally {
    observer.close();
  }
  expect(visibleAtAck).toEqual(Array.from({ length: 20 }, () => true));
});

it('when a connection is opened on a file already in WAL mode, then it still commits with synchronous=FULL', () => {
  // The durable default of issue 6: this build of better-sqlite3 would otherwise give it NORMAL.
  const later = openConnection(filename, 1000);
  try {
    expect(later.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(later.pragma('synchronous', { simple: true })).toBe(2);
  } finally {
    later.close();
  }
});
