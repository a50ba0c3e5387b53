// The change signal (src/app/ports/change-signal.ts): whether anything was committed since a
// process last looked, without a query where the engine allows it.
import { describe, expect, it } from 'vitest';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import { testStoreKind } from '../support/databases.js';
import { addEventType, addHolder, eventTypeOf, storage, store, testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

describe('database version', () => {
  it.runIf(testStoreKind() === 'postgres')(
    'when the engine is PostgreSQL, then it cannot tell cheaply and says null',
    () => {
      expect(storage.changes.databaseVersion()).toBeNull();
    },
  );

  it.runIf(testStoreKind() === 'sqlite')(
    'when nothing is committed, then the version stays; a commit of this store or of another process changes it',
    async () => {
      const holder = await addHolder('alice');
      const before = storage.changes.databaseVersion();
      await store.holders.get(holder.id);
      await store.eventTypes.list(holder.id, { limit: 10, after: null });
      expect(storage.changes.databaseVersion()).toBe(before);

      await addEventType(holder.id, { slug: 'own' });
      const afterOwn = storage.changes.databaseVersion();
      expect(afterOwn).not.toBe(before);

      // Another process: a second store on the same file.
      const other = await openStorage(parseDatabaseUrl(testStore.databaseUrl), {
        poolSize: 1,
        statementTimeoutMs: 1000,
      });
      try {
        await other.store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(holder.id, { slug: 'theirs' })));
      } finally {
        await other.close();
      }
      // Another process's commit is read from the next event-loop turn on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(storage.changes.databaseVersion()).not.toBe(afterOwn);
    },
  );

  it.runIf(testStoreKind() === 'sqlite')('when a transaction rolls back, then the version stays', async () => {
    const holder = await addHolder('alice');
    const before = storage.changes.databaseVersion();
    await expect(
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(eventTypeOf(holder.id));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(storage.changes.databaseVersion()).toBe(before);
  });
});
