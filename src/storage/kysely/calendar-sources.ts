import { sql, type Selectable } from 'kysely';
import type {
  CalendarSource,
  CalendarSourceStatus,
  CalendarSourceType,
  SourceBusy,
} from '../../domain/calendar-source.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type {
  BusyTimeWrites,
  CalendarSourceWrites,
  StoredSource,
  StoredSourceOfAccount,
  SyncLeases,
} from '../../app/ports/store.js';
import type { Interval } from '../../domain/intervals.js';
import { DAY_MS } from '../../domain/instant.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import { keysetPage } from './keyset.js';
import { Table } from './table.js';

function toSource(row: Selectable<Database['calendar_sources']>): CalendarSource {
  return {
    id: row.id,
    holderId: row.holder_id,
    type: row.type as CalendarSourceType,
    name: row.name,
    url: row.shown_url,
    status: row.status as CalendarSourceStatus,
    lastSyncedAt: row.last_synced_at === null ? null : Number(row.last_synced_at),
    lastError: row.last_error,
    writeBookings: Boolean(row.write_bookings),
    lastWriteError: row.last_write_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toStored(row: Selectable<Database['calendar_sources']>): StoredSource {
  return {
    source: toSource(row),
    sealedAddress: row.address,
    syncState: row.sync_state,
    busyDigest: row.busy_digest,
    failing: Boolean(row.failing),
  };
}

/** The columns a source's changes write (all but its identity, its schedule and its lease). */
function changingColumns(stored: StoredSource) {
  const { source } = stored;
  return {
    name: source.name,
    shown_url: source.url,
    address: stored.sealedAddress,
    status: source.status,
    last_synced_at: source.lastSyncedAt,
    last_error: source.lastError,
    write_bookings: source.writeBookings ? 1 : 0,
    last_write_error: source.lastWriteError,
    failing: stored.failing ? 1 : 0,
    sync_state: stored.syncState,
    busy_digest: stored.busyDigest,
    updated_at: source.updatedAt,
  };
}

export class KyselyCalendarSources extends Table implements CalendarSourceWrites, SyncLeases {
  async get(holderId: string, id: string): Promise<CalendarSource | undefined> {
    const row = await this.db
      .selectFrom('calendar_sources')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toSource(row);
  }

  async stored(holderId: string, id: string): Promise<StoredSourceOfAccount | undefined> {
    const row = await this.engine
      .lockingRows(
        this.db
          .selectFrom('calendar_sources')
          .selectAll()
          // A subquery, not a join: PostgreSQL's `for update` then locks the source row alone.
          .select((eb) =>
            eb
              .selectFrom('holders')
              .select('account_id')
              .whereRef('holders.id', '=', 'calendar_sources.holder_id')
              .as('account_id'),
          )
          .where('holder_id', '=', holderId)
          .where('id', '=', id),
      )
      .executeTakeFirst();
    return row && { ...toStored(row as Selectable<Database['calendar_sources']>), accountId: row.account_id! };
  }

  async list(holderId: string, page: PageRequest): Promise<CalendarSource[]> {
    const query = this.db.selectFrom('calendar_sources').selectAll().where('holder_id', '=', holderId);
    return (await keysetPage(query, { key: 'created_at', id: 'id' }, page).execute()).map(toSource);
  }

  async count(holderId: string): Promise<number> {
    const row = await this.db
      .selectFrom('calendar_sources')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('holder_id', '=', holderId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async writtenTo(holderId: string): Promise<CalendarSource | undefined> {
    const row = await this.db
      .selectFrom('calendar_sources')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('write_bookings', '=', 1)
      .executeTakeFirst();
    return row && toSource(row);
  }

  async insert(stored: StoredSource, nextSyncAt: Instant): Promise<void> {
    this.scope.writes(stored.source.holderId);
    const { source } = stored;
    await this.db
      .insertInto('calendar_sources')
      .values({
        id: source.id,
        holder_id: source.holderId,
        type: source.type,
        ...changingColumns(stored),
        next_sync_at: nextSyncAt,
        lease_until: null,
        created_at: source.createdAt,
      })
      .execute();
  }

  async update(stored: StoredSource, nextSyncAt?: Instant): Promise<void> {
    this.scope.writes(stored.source.holderId);
    await this.db
      .updateTable('calendar_sources')
      .set({ ...changingColumns(stored), ...(nextSyncAt === undefined ? {} : { next_sync_at: nextSyncAt }) })
      .where('holder_id', '=', stored.source.holderId)
      .where('id', '=', stored.source.id)
      .execute();
  }

  async delete(holderId: string, id: string): Promise<boolean> {
    this.scope.writes(holderId);
    await this.db.deleteFrom('busy_intervals').where('source_id', '=', id).where('holder_id', '=', holderId).execute();
    const result = await this.db
      .deleteFrom('calendar_sources')
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(holderId: string): Promise<void> {
    this.scope.writes(holderId);
    await this.db.deleteFrom('busy_intervals').where('holder_id', '=', holderId).execute();
    await this.db.deleteFrom('calendar_sources').where('holder_id', '=', holderId).execute();
  }

  async claimDue(now: Instant, leaseUntil: Instant, limit: number): Promise<Array<{ id: string; holderId: string }>> {
    // One statement: a source another instance leased (and has not let lapse) is passed over, so
    // each is synced by one instance at a time.
    const rows = await sql<{ id: string; holder_id: string }>`
      update calendar_sources set lease_until = ${leaseUntil}
      where id in (
        select id from calendar_sources
        where next_sync_at <= ${now} and (lease_until is null or lease_until <= ${now})
        order by next_sync_at, id
        limit ${limit}
        ${this.engine.skippingLocked}
      )
      returning id, holder_id`.execute(this.db);
    return rows.rows.map((row) => ({ id: row.id, holderId: row.holder_id }));
  }

  async claim(holderId: string, id: string, now: Instant, leaseUntil: Instant): Promise<boolean> {
    this.scope.writes(holderId);
    const result = await this.db
      .updateTable('calendar_sources')
      .set({ lease_until: leaseUntil })
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(id: string, nextSyncAt: Instant): Promise<void> {
    await this.db
      .updateTable('calendar_sources')
      .set({ lease_until: null, next_sync_at: nextSyncAt })
      .where('id', '=', id)
      .execute();
  }
}

/** Intervals longer than this are few and scanned; shorter ones are sought by their start. */
const SHORT_MS = DAY_MS;

/**
 * `rowsOverlapping`'s two parts for each holder of a JSON array, in one statement: the short
 * intervals sought by start from `shortFrom` (a day before `from`), the long ones scanned.
 */
const overlappingOfHolders = compiledOnce<{ holderIds: string; from: Instant; to: Instant; shortFrom: Instant }>()((
  db,
  param,
  engine,
) => {
  const part = (long: boolean) =>
    db
      .selectFrom('busy_intervals')
      .select(['holder_id', 'start_at', 'end_at'])
      .where(engine.oneOf('holder_id', param('holderIds')))
      .where('spans_days', '=', sql.lit(long ? 1 : 0))
      .where('start_at', '<', param('to'))
      .where('end_at', '>', param('from'));
  return part(false).where('start_at', '>=', param('shortFrom')).unionAll(part(true));
});

export class KyselyBusyTime extends Table implements BusyTimeWrites {
  async overlapping(holderId: string, from: Instant, to: Instant): Promise<Interval[]> {
    const rows = await this.rowsOverlapping(holderId, from, to, null, null);
    return rows.map((row) => ({ start: Number(row.start_at), end: Number(row.end_at) }));
  }

  async overlappingOf(holderIds: readonly string[], from: Instant, to: Instant): Promise<Map<string, Interval[]>> {
    const rows = await overlappingOfHolders(this.db, this.engine, {
      holderIds: JSON.stringify(holderIds),
      from,
      to,
      shortFrom: from - SHORT_MS,
    });
    const byHolder = new Map(holderIds.map((id) => [id, [] as Interval[]]));
    for (const row of rows) byHolder.get(row.holder_id)!.push({ start: Number(row.start_at), end: Number(row.end_at) });
    return byHolder;
  }

  async list(holderId: string, from: Instant, to: Instant, page: PageRequest): Promise<SourceBusy[]> {
    const rows = await this.rowsOverlapping(holderId, from, to, page.after ?? null, page.limit);
    return rows.map((row) => ({ start: Number(row.start_at), end: Number(row.end_at), sourceId: row.source_id }));
  }

  async replace(holderId: string, sourceId: string, intervals: readonly Interval[]): Promise<void> {
    this.scope.writes(holderId);
    await this.db.deleteFrom('busy_intervals').where('source_id', '=', sourceId).execute();
    // In chunks: SQLite allows 32,766 bound values a statement, PostgreSQL 65,535.
    for (let i = 0; i < intervals.length; i += 1_000) {
      await this.db
        .insertInto('busy_intervals')
        .values(
          intervals.slice(i, i + 1_000).map((interval) => ({
            source_id: sourceId,
            holder_id: holderId,
            start_at: interval.start,
            end_at: interval.end,
            spans_days: interval.end - interval.start > SHORT_MS ? 1 : 0,
          })),
        )
        .execute();
    }
  }

  /**
   * Intervals of the holder overlapping [from, to), by start then source: the short ones sought
   * by start (they begin at most a day before `from`), the long ones scanned, merged in order.
   */
  private async rowsOverlapping(
    holderId: string,
    from: Instant,
    to: Instant,
    after: { key: number; id: string } | null,
    limit: number | null,
  ) {
    const part = (long: boolean) => {
      let query = this.db
        .selectFrom('busy_intervals')
        .select(['start_at', 'end_at', 'source_id'])
        .where('holder_id', '=', holderId)
        .where('spans_days', '=', long ? 1 : 0)
        .where('start_at', '<', to)
        .where('end_at', '>', from);
      if (!long) query = query.where('start_at', '>=', from - SHORT_MS);
      if (after)
        query = query.where(
          sql<boolean>`(${sql.ref('start_at')}, ${sql.ref('source_id')}) > (${after.key}, ${after.id})`,
        );
      query = query.orderBy('start_at').orderBy('source_id');
      return (limit === null ? query : query.limit(limit)).execute();
    };
    const [short, long] = await Promise.all([part(false), part(true)]);
    const merged = [...short, ...long].sort(
      (a, b) =>
        Number(a.start_at) - Number(b.start_at) || (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0),
    );
    return limit === null ? merged : merged.slice(0, limit);
  }
}
