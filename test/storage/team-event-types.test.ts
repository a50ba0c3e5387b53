// Team event types in the store (contract §14, migration 0016), on both engines: stored with their
// hosts, found apart from holders' own, listed with them, slugs unique among an account's live
// team types, kept from being left with a deleted host, and heard as a change of their account
// (not of their hosts) by this process and by every other.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/app/ports/storage-errors.js';
import type { Holder } from '../../src/domain/api-key.js';
import type { EventType } from '../../src/domain/event-type.js';
import type { TeamEventType } from '../../src/domain/team-event-type.js';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import { OutOfScope } from '../../src/storage/kysely/write-scope.js';
import { DEFAULT_CHANGE_POLL_TIMING } from '../../src/storage/postgres-change-poll.js';
import { heardWithin, markWhenHearing } from '../support/change-marks.js';
import { testStoreKind } from '../support/databases.js';
import {
  addEventType,
  addHolder,
  addHolderIn,
  allPages,
  byKeyThenId,
  eventTypeOf,
  storage,
  store,
  T0,
  testStore,
  useFreshStorage,
} from './fixture.js';
import { teamEventTypeRecord } from './records.js';

// PostgreSQL: what the poll heard is relied on for 30 s instead of 500 ms, so that a loaded
// machine's slow poll cannot make a mark count as changed (nothing trusted) where a test says it
// stays current; hearing a change still takes the poll's 100 ms. The lapse of that trust is
// change-signal.test.ts's.
useFreshStorage({ ...DEFAULT_CHANGE_POLL_TIMING, trustMs: 30_000 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function addTeam(accountId: string, hostIds: string[], fields: Partial<TeamEventType> = {}) {
  const team = teamEventTypeRecord(accountId, hostIds, T0, fields);
  await store.transaction((tx) => tx.teamEventTypes.insert(team), { ownerIds: [accountId] });
  return team;
}

/** An account with the holders ada and bob; another account with its holder gus. */
async function world(): Promise<{ ada: Holder; bob: Holder; gus: Holder; accountId: string; handle: string }> {
  const ada = await addHolder('ada');
  const bob = await addHolderIn(ada.accountId, 'bob');
  const gus = await addHolder('gus');
  const account = await store.accounts.get(ada.accountId);
  return { ada, bob, gus, accountId: ada.accountId, handle: account!.handle };
}

describe('team event types in the store', () => {
  it('when one is stored, then it reads back with its hosts in order and its account’s handle; no holder’s own reads find it', async () => {
    const { ada, bob, accountId, handle } = await world();
    const team = teamEventTypeRecord(accountId, [bob.id, ada.id], T0, {
      assignment: 'collective',
      hosts: [
        { holderId: bob.id, scheduleId: null, fixed: true, priority: 0, weight: 1 },
        { holderId: ada.id, scheduleId: null, fixed: false, priority: 4, weight: 1000 },
      ],
    });
    await store.transaction((tx) => tx.teamEventTypes.insert(team), { ownerIds: [accountId] });
    expect(await store.teamEventTypes.get(team.id)).toEqual({ ...team, accountHandle: handle });
    expect(await store.eventTypes.get(ada.id, team.id)).toBeUndefined();
    expect(await store.eventTypes.holderOf(team.id)).toBeUndefined();
    expect(await store.eventTypes.liveOf([ada.id])).toEqual([]);

    const own = await addEventType(ada.id);
    expect(await store.teamEventTypes.get(own.id)).toBeUndefined();
    expect(await store.transaction((tx) => tx.teamEventTypes.delete(accountId, own.id, T0))).toBe(false);
    expect(await store.eventTypes.get(ada.id, own.id)).toEqual(own);
  });

  it('when it is updated, then its fields and its whole host list are replaced; deleted, it is not found and counts no more', async () => {
    const { ada, bob, accountId } = await world();
    const team = await addTeam(accountId, [ada.id, bob.id]);
    expect(await store.transaction((tx) => tx.teamEventTypes.countLive(accountId))).toBe(1);
    const changed: TeamEventType = {
      ...team,
      title: 'Renamed',
      hosts: [{ holderId: bob.id, scheduleId: null, fixed: false, priority: 3, weight: 9 }],
    };
    await store.transaction((tx) => tx.teamEventTypes.update(changed), { ownerIds: [accountId] });
    expect(await store.teamEventTypes.get(team.id)).toMatchObject({ title: 'Renamed', hosts: changed.hosts });
    expect(await store.transaction((tx) => tx.teamEventTypes.delete(accountId, team.id, T0 + 1))).toBe(true);
    expect(await store.teamEventTypes.get(team.id)).toBeUndefined();
    expect(await store.transaction((tx) => tx.teamEventTypes.countLive(accountId))).toBe(0);
    expect(await store.transaction((tx) => tx.teamEventTypes.delete(accountId, team.id, T0 + 2))).toBe(false);
  });

  it('when two live team types of an account take one slug, then the second is a UniqueViolation; another account’s, a deleted one’s and a holder’s own slug do not collide', async () => {
    const { ada, gus, accountId } = await world();
    await addEventType(ada.id, { slug: 'sales' });
    const first = await addTeam(accountId, [ada.id], { slug: 'sales' });
    await expect(addTeam(accountId, [ada.id], { slug: 'sales' })).rejects.toBeInstanceOf(UniqueViolation);
    await addTeam(gus.accountId, [gus.id], { slug: 'sales' });
    await store.transaction((tx) => tx.teamEventTypes.delete(accountId, first.id, T0 + 1));
    await addTeam(accountId, [ada.id], { slug: 'sales' });
    expect(await store.transaction((tx) => tx.teamEventTypes.slugsLike(accountId, 'sales'))).toEqual(
      new Set(['sales']),
    );
  });

  it('when an account’s public team types are read (its team page), then only its live public ones are found, by title, and one by its slug', async () => {
    const { ada, bob, gus, accountId, handle } = await world();
    const zeta = await addTeam(accountId, [ada.id, bob.id], { title: 'Zeta', slug: 'zeta', public: true });
    const alpha = await addTeam(accountId, [bob.id], { title: 'Alpha', slug: 'alpha', public: true });
    await addTeam(accountId, [ada.id], { title: 'Hidden', slug: 'hidden', public: false });
    const gone = await addTeam(accountId, [ada.id], { title: 'Gone', slug: 'gone', public: true });
    await store.transaction((tx) => tx.teamEventTypes.delete(accountId, gone.id, T0 + 1), { ownerIds: [accountId] });
    await addTeam(gus.accountId, [gus.id], { title: 'Other', slug: 'other', public: true });
    await addEventType(ada.id, { slug: 'own', public: true });
    expect(await store.teamEventTypes.listPublic(accountId)).toEqual([
      { ...alpha, accountHandle: handle },
      { ...zeta, accountHandle: handle },
    ]);
    expect(await store.teamEventTypes.findPublic(accountId, 'zeta')).toEqual({ ...zeta, accountHandle: handle });
    for (const slug of ['hidden', 'gone', 'other', 'own', 'unknown'])
      expect(await store.teamEventTypes.findPublic(accountId, slug), slug).toBeUndefined();
    expect(await store.teamEventTypes.listPublic(gus.accountId)).toHaveLength(1);
  });

  it('when a team type is written by a transaction scoped to one of its hosts, then it fails before the write: a team type is its account’s', async () => {
    const { ada, accountId } = await world();
    const team = teamEventTypeRecord(accountId, [ada.id], T0);
    await expect(
      store.transaction((tx) => tx.teamEventTypes.insert(team), { ownerIds: [ada.id] }),
    ).rejects.toBeInstanceOf(OutOfScope);
    expect(await store.teamEventTypes.get(team.id)).toBeUndefined();
  });

  it('when hosts are checked, then only live holders of the account are kept; a holder hosts while a live team type names it', async () => {
    const { ada, bob, gus, accountId } = await world();
    const dee = await addHolderIn(accountId, 'dee');
    await store.transaction((tx) => tx.holders.markDeleted(dee.id, T0));
    const kept = await store.transaction((tx) =>
      tx.holders.keepLive(accountId, [bob.id, gus.id, dee.id, 'hdr_00000000000000000000', ada.id]),
    );
    expect(kept).toEqual(new Set([ada.id, bob.id]));

    const hosts = (id: string) => store.transaction((tx) => tx.holders.hostsLiveTeamType(id));
    const team = await addTeam(accountId, [ada.id]);
    expect([await hosts(ada.id), await hosts(bob.id)]).toEqual([true, false]);
    await store.transaction((tx) => tx.teamEventTypes.delete(accountId, team.id, T0 + 1));
    expect(await hosts(ada.id)).toBe(false);
  });

  it('when a holder’s deletion is decided while a team type naming it as host is being written, then the deletion sees the host (it waits for the write), or the write sees the holder deleted', async () => {
    const { ada, accountId } = await world();
    // The write first: it keeps its host, then takes its time before storing the team type. The
    // deletion starts once the host is kept, however long that took (a fixed wait could pass
    // before it on a loaded machine, and the deletion would go first).
    let kept!: () => void;
    const hostKept = new Promise<void>((resolve) => (kept = resolve));
    const writing = store.transaction(async (tx) => {
      const live = await tx.holders.keepLive(accountId, [ada.id]);
      kept();
      await sleep(150);
      await tx.teamEventTypes.insert(teamEventTypeRecord(accountId, [...live], T0));
    });
    await Promise.race([hostKept, writing]);
    const deletionSees = store.transaction(async (tx) => {
      await tx.holders.lockedLive(ada.id);
      return tx.holders.hostsLiveTeamType(ada.id);
    });
    await writing;
    expect(await deletionSees).toBe(true);

    // The deletion first: it holds the holder until it commits; the write then finds no live host.
    const bob = await addHolderIn(accountId, 'bob');
    let marked!: () => void;
    const holderMarked = new Promise<void>((resolve) => (marked = resolve));
    const deleting = store.transaction(async (tx) => {
      await tx.holders.lockedLive(bob.id);
      await tx.holders.markDeleted(bob.id, T0 + 1);
      marked();
      await sleep(150);
    });
    await Promise.race([holderMarked, deleting]);
    const writeKeeps = store.transaction((tx) => tx.holders.keepLive(accountId, [bob.id]));
    await deleting;
    expect(await writeKeeps).toEqual(new Set());
  });
});

describe('lists of event types with team types', () => {
  it('when a holder’s list is paged, then its own and the team types it hosts join up in (createdAt, id) order, with no duplicates, gaps, deleted or foreign ones', async () => {
    const { ada, bob, gus, accountId } = await world();
    const at = (i: number) => T0 + Math.floor(i / 3) * 1000;
    const expected: Array<{ id: string; createdAt: number }> = [];
    for (let i = 0; i < 9; i++) {
      expected.push(await addEventType(ada.id, { createdAt: at(i) }));
      expected.push(await addTeam(accountId, [bob.id, ada.id], { createdAt: at(i) }));
      await addTeam(accountId, [bob.id], { createdAt: at(i) });
      await addEventType(bob.id, { createdAt: at(i) });
    }
    const gone = await addTeam(accountId, [ada.id], { createdAt: at(4) });
    await store.transaction((tx) => tx.teamEventTypes.delete(accountId, gone.id, T0 + 9_000));
    await addTeam(gus.accountId, [gus.id], { createdAt: at(4) });
    expected.sort(byKeyThenId((e) => e.createdAt));

    for (const limit of [1, 2, 5, 18, 50]) {
      const pages = await allPages(
        (page) => store.eventTypes.list({ accountId, holderId: ada.id }, page),
        limit,
        (e) => e.createdAt,
      );
      expect(
        pages.flat().map((e) => e.id),
        `limit ${limit}`,
      ).toEqual(expected.map((e) => e.id));
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
  });

  it('when the account’s list is paged, then every live team type and every live holder’s own event type appear once, in order, each as its kind', async () => {
    const { ada, bob, gus, accountId, handle } = await world();
    const made: Array<EventType | TeamEventType> = [];
    for (let i = 0; i < 4; i++) {
      made.push(await addEventType(ada.id, { createdAt: T0 + i }));
      made.push(await addTeam(accountId, [bob.id], { createdAt: T0 + i }));
      made.push(await addEventType(bob.id, { createdAt: T0 + i }));
    }
    await addEventType(gus.id);
    const listed = (
      await allPages(
        (page) => store.eventTypes.list({ accountId, holderId: null }, page),
        5,
        (e) => e.createdAt,
      )
    ).flat();
    expect(listed.map((e) => e.id)).toEqual([...made].sort(byKeyThenId((e) => e.createdAt)).map((e) => e.id));
    for (const item of listed) {
      const original = made.find((e) => e.id === item.id)!;
      if (original.holderId === null) expect(item).toEqual({ ...original, accountHandle: handle });
      else expect(item).toEqual({ ...original, holderHandle: original.holderId === ada.id ? ada.handle : bob.handle });
    }
  });
});

/** Commits through a second storage on the same database: another process, as far as the first can tell. */
async function inAnotherProcess(work: Parameters<typeof store.transaction>[0]): Promise<void> {
  const other = await openStorage(parseDatabaseUrl(testStore.databaseUrl), { poolSize: 1, statementTimeoutMs: 1000 });
  try {
    await other.store.transaction(work);
  } finally {
    await other.close();
  }
}

describe('a change of a team type is a change of its account (what a cache of team types by account hears)', () => {
  it('when this process writes a team type, then its account counts as changed at the commit, and its hosts do not', async () => {
    const { ada, bob, accountId } = await world();
    const before = await markWhenHearing(storage);
    const team = await addTeam(accountId, [ada.id, bob.id]);
    expect(storage.changes.unchangedSince(before, accountId)).toBe(false);
    for (const host of [ada, bob]) expect(storage.changes.unchangedSince(before, host.id)).toBe(true);

    const beforeUpdate = storage.changes.mark()!;
    await store.transaction((tx) => tx.teamEventTypes.update({ ...team, hosts: team.hosts.slice(1) }), {
      ownerIds: [accountId],
    });
    expect(storage.changes.unchangedSince(beforeUpdate, accountId)).toBe(false);
  });

  it('when another process creates, changes or deletes a team type, then this one hears its account changed within a second', async () => {
    const { ada, bob, accountId } = await world();
    const team = teamEventTypeRecord(accountId, [ada.id], T0);
    const steps: Array<[string, Parameters<typeof store.transaction>[0]]> = [
      ['created', (tx) => tx.teamEventTypes.insert(team)],
      ['changed', (tx) => tx.teamEventTypes.update({ ...team, title: 'Changed', hosts: [...team.hosts] })],
      ['deleted', async (tx) => void (await tx.teamEventTypes.delete(accountId, team.id, T0 + 1))],
    ];
    for (const [what, work] of steps) {
      const before = await markWhenHearing(storage);
      await inAnotherProcess(work);
      expect(await heardWithin(1_000, () => !storage.changes.unchangedSince(before, accountId)), what).toBe(true);
      // PostgreSQL hears which owners changed: the hosts' keys and calendars stay valid.
      if (testStoreKind() === 'postgres')
        for (const host of [ada, bob]) expect(storage.changes.unchangedSince(before, host.id), what).toBe(true);
    }
  });

  it.runIf(testStoreKind() === 'postgres')(
    'when another process changes only a host row, or only a holder’s own event type, then the first is heard as its account’s change and the second is not',
    async () => {
      const { ada, bob, accountId } = await world();
      const team = await addTeam(accountId, [ada.id, bob.id]);
      const admin = new pg.Client({ connectionString: testStore.databaseUrl });
      await admin.connect();
      try {
        let before = await markWhenHearing(storage);
        await admin.query('update event_type_hosts set weight = 7 where event_type_id = $1 and holder_id = $2', [
          team.id,
          bob.id,
        ]);
        expect(await heardWithin(1_000, () => !storage.changes.unchangedSince(before, accountId))).toBe(true);

        before = await markWhenHearing(storage);
        await inAnotherProcess((tx) => tx.eventTypes.insert(eventTypeOf(ada.id)));
        expect(await heardWithin(1_000, () => !storage.changes.unchangedSince(before, ada.id))).toBe(true);
        expect(storage.changes.unchangedSince(before, accountId)).toBe(true);
      } finally {
        await admin.end();
      }
    },
  );
});
