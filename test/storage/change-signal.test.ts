// The change signal (src/app/ports/change-signal.ts): whether anything that concerns a holder was
// committed since a mark, by this process or another, without a query: SQLite's `data_version`,
// PostgreSQL's change poll (src/storage/postgres-change-poll.ts).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { DEFAULT_CHANGE_POLL_TIMING } from '../../src/storage/postgres-change-poll.js';
import { OutOfScope } from '../../src/storage/kysely/write-scope.js';
import { heardWithin, markWhenHearing } from '../support/change-marks.js';
import { testStoreKind } from '../support/databases.js';
import { addEventType, addHolder, eventTypeOf, storage, store, testStore, useFreshStorage } from './fixture.js';

// PostgreSQL: what the poll heard is relied on for 30 s instead of 500 ms, so that a loaded
// machine's slow poll cannot make a mark count as changed (nothing trusted) where a test says it
// stays current; hearing a change still takes the poll's 100 ms. The lapse of that trust is tested
// with a storage of its own timing.
useFreshStorage({ ...DEFAULT_CHANGE_POLL_TIMING, trustMs: 30_000 });

/** Commits through a second storage on the same database: another process, as far as the first can tell. */
async function inAnotherProcess(work: Parameters<typeof store.transaction>[0]): Promise<void> {
  const other = await openStorage(parseDatabaseUrl(testStore.databaseUrl), { poolSize: 1, statementTimeoutMs: 1000 });
  try {
    await other.store.transaction(work);
  } finally {
    await other.close();
  }
}

describe('change signal', () => {
  it('when nothing is committed, then a mark stays current; a commit of this store or of another process ends it', async () => {
    const holder = await addHolder('alice');
    const before = await markWhenHearing(storage);
    await store.holders.get(holder.id);
    await store.eventTypes.list({ accountId: holder.accountId, holderId: holder.id }, { limit: 10, after: null });
    expect(storage.changes.unchangedSince(before, holder.id)).toBe(true);

    await addEventType(holder.id, { slug: 'own' });
    // This process's own commit is known at once: read-your-writes on one instance.
    expect(storage.changes.unchangedSince(before, holder.id)).toBe(false);

    const afterOwn = await markWhenHearing(storage);
    await inAnotherProcess((tx) => tx.eventTypes.insert(eventTypeOf(holder.id, { slug: 'theirs' })));
    expect(await heardWithin(1_000, () => !storage.changes.unchangedSince(afterOwn, holder.id))).toBe(true);
  });

  it('when a transaction rolls back, then a mark stays current', async () => {
    const holder = await addHolder('alice');
    const before = await markWhenHearing(storage);
    await expect(
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(eventTypeOf(holder.id));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A question asked after the rollback answered: a change (wrongly) made would be heard by now,
    // however long the poll took (a fixed wait could end before it on a loaded machine).
    await storage.changesHeard();
    expect(storage.changes.unchangedSince(before, holder.id)).toBe(true);
  });

  it('when this process commits a transaction scoped to one holder, then marks stay current for every other holder, unless a transaction committed with it was not scoped', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const before = await markWhenHearing(storage);
    await store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(bob.id, { slug: 'scoped' })), {
      ownerIds: [bob.id],
    });
    expect(storage.changes.unchangedSince(before, bob.id)).toBe(false);
    expect(storage.changes.unchangedSince(before, alice.id)).toBe(true);

    // Started in the same turn, the two share one commit on SQLite (a group commit): the batch
    // says what its widest unit says.
    const beforeBoth = storage.changes.mark()!;
    await Promise.all([
      store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(bob.id, { slug: 'scoped-again' })), {
        ownerIds: [bob.id],
      }),
      store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(bob.id, { slug: 'unscoped' }))),
    ]);
    expect(storage.changes.unchangedSince(beforeBoth, alice.id)).toBe(false);
  });

  it("when a transaction scoped to one holder writes another holder's rows, then it fails before the write and commits nothing; a scope naming both holders allows it and marks both changed", async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const before = await markWhenHearing(storage);
    const outOfScope = store.transaction(
      async (tx) => {
        await tx.eventTypes.insert(eventTypeOf(bob.id, { slug: 'in-scope' }));
        await tx.eventTypes.insert(eventTypeOf(alice.id, { slug: 'out-of-scope' }));
      },
      { ownerIds: [bob.id] },
    );
    await expect(outOfScope).rejects.toThrow(OutOfScope);
    expect(await store.eventTypes.liveOf([bob.id])).toEqual([]);
    expect(await store.eventTypes.liveOf([alice.id])).toEqual([]);
    // Revoking a key names no holder: a scoped transaction may not.
    await expect(
      store.transaction((tx) => tx.apiKeys.revoke('key_unknown', 0), { ownerIds: [bob.id] }),
    ).rejects.toThrow(OutOfScope);
    expect(storage.changes.unchangedSince(before, alice.id)).toBe(true);

    await store.transaction(
      async (tx) => {
        await tx.eventTypes.insert(eventTypeOf(bob.id, { slug: 'both' }));
        await tx.eventTypes.insert(eventTypeOf(alice.id, { slug: 'both' }));
      },
      { ownerIds: [alice.id, bob.id] },
    );
    expect(storage.changes.unchangedSince(before, alice.id)).toBe(false);
    expect(storage.changes.unchangedSince(before, bob.id)).toBe(false);
  });

  it.runIf(testStoreKind() === 'postgres')(
    'when another process changes one holder, then marks stay current for every other holder',
    async () => {
      const alice = await addHolder('alice');
      const bob = await addHolder('bob');
      const before = await markWhenHearing(storage);
      await inAnotherProcess((tx) => tx.eventTypes.insert(eventTypeOf(alice.id)));
      expect(await heardWithin(1_000, () => !storage.changes.unchangedSince(before, alice.id))).toBe(true);
      expect(storage.changes.unchangedSince(before, bob.id)).toBe(true);
    },
  );

  it.runIf(testStoreKind() === 'postgres')(
    'when the change poll loses its connection, then nothing counts as unchanged until it answers again, and what was read before stays changed',
    async () => {
      const pollTiming = { intervalMs: 20, trustMs: 200, reconnectMs: 300, maxReconnectMs: 300 };
      const own = await openPostgresStorage({
        connectionString: testStore.databaseUrl,
        poolSize: 2,
        statementTimeoutMs: 1000,
        changePoll: pollTiming,
      });
      try {
        const holder = await addHolder('alice');
        const before = await markWhenHearing(own);
        expect(own.changes.unchangedSince(before, holder.id)).toBe(true);

        const admin = new pg.Client({ connectionString: testStore.databaseUrl });
        await admin.connect();
        try {
          const { rows } = await admin.query(
            `select pg_terminate_backend(pid) as ended from pg_stat_activity
             where application_name = 'slotwise-change-poll' and datname = current_database()`,
          );
          expect(rows.length).toBeGreaterThan(0);
        } finally {
          await admin.end();
        }
        expect(await heardWithin(1_000, () => own.changes.mark() === null)).toBe(true);
        expect(own.changes.unchangedSince(before, holder.id)).toBe(false);

        // Back after the reconnection wait: a mark again, but the earlier one is spent.
        const after = await markWhenHearing(own);
        expect(after).toBeGreaterThan(before);
        expect(own.changes.unchangedSince(before, holder.id)).toBe(false);
        expect(own.changes.unchangedSince(after, holder.id)).toBe(true);
      } finally {
        await own.close();
      }
    },
  );
  it('when another process commits, then once changesHeard resolves, the change is known, however seldom the poll asks', async () => {
    // PostgreSQL: a poll that asks every 10 s, so only a question asked on purpose hears the commit in time.
    const own =
      testStoreKind() === 'postgres'
        ? await openPostgresStorage({
            connectionString: testStore.databaseUrl,
            poolSize: 2,
            statementTimeoutMs: 1000,
            changePoll: { intervalMs: 10_000, trustMs: 60_000, reconnectMs: 100, maxReconnectMs: 100 },
          })
        : await openStorage(parseDatabaseUrl(testStore.databaseUrl));
    try {
      const holder = await addHolder('alice');
      const before = await markWhenHearing(own);
      await inAnotherProcess((tx) => tx.eventTypes.insert(eventTypeOf(holder.id)));
      const asked = performance.now();
      await own.changesHeard();
      expect(performance.now() - asked).toBeLessThan(5_000);
      expect(own.changes.unchangedSince(before, holder.id)).toBe(false);
    } finally {
      await own.close();
    }
  });
});
