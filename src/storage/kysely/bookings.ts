import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Booking, BookingStatus } from '../../domain/booking.js';
import type { Instant } from '../../domain/instant.js';
import type { AccountFilter, BookingQuery, BookingWrites, StoredOccupancy } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { compiledOnce } from './compiled-once.js';
import { bookingRow, HELD, toBooking, toOccupancies } from './rows.js';
import { keysetPage } from './keyset.js';
import { ofAccount } from './of-account.js';
import { OCCUPYING_STATUSES } from './occupying.js';
import { Table } from './table.js';

/**
 * Written into the SQL, not bound: the booking indexes are partial (`where status = 'confirmed'`),
 * and SQLite re-plans a statement on every run when a bound value decides whether such an index applies.
 */
const CONFIRMED = sql.lit('confirmed');
/** Occupying rows: `OCCUPYING_STATUSES`, the occupancy index's predicate word for word (which lets SQLite use it). */
const OCCUPYING = sql<boolean>`${sql.raw(OCCUPYING_STATUSES)}`;
/** Bookings in every status, holds left out: the predicate of `bookings_by_start` (migration 0007), word for word. */
const NOT_HELD = sql<boolean>`status <> 'held'`;

const OCCUPANCY_COLUMNS = ['id', 'event_type_id', 'start_at', 'occupied_start', 'occupied_end', 'expires_at'] as const;
/**
 * Occupying rows of one event type starting in [from, to) (a daily cap's count), found through the
 * occupancy index: a start lies at most the longest buffer (a day) after its occupancy's start, so
 * the occupancies starting in [from − 1 day, to) hold them all. One index fewer for every booking
 * to update.
 */
const occupanciesStartingBetween = compiledOnce<{
  holderId: string;
  occupiedFrom: Instant;
  occupiedTo: Instant;
  eventTypeId: string;
  from: Instant;
  to: Instant;
}>()((db, param) =>
  db
    .selectFrom('bookings')
    .select(OCCUPANCY_COLUMNS)
    .where('holder_id', '=', param('holderId'))
    .where(OCCUPYING)
    .where('occupied_start', '>=', param('occupiedFrom'))
    .where('occupied_start', '<', param('occupiedTo'))
    .where('event_type_id', '=', param('eventTypeId'))
    .where('start_at', '>=', param('from'))
    .where('start_at', '<', param('to')),
);
/** The longest buffer before a booking (the schemas' limit): how far before its start an occupancy may begin. */
const MAX_BUFFER_MS = 1_440 * 60_000;
/**
 * Occupying rows whose occupancy starts in [from, to), and the one that starts last before
 * `from`: they never overlap one another (the rules, and on PostgreSQL the exclusion constraint,
 * hold that; an expired hold is removed before anything takes its time), so their ends ascend with
 * their starts and no earlier one can reach `from`. Two index seeks, however many lie before.
 */
const occupanciesFrom = compiledOnce<{ holderId: string; from: Instant; to: Instant }>()((db, param) => {
  const occupying = () =>
    db.selectFrom('bookings').select(OCCUPANCY_COLUMNS).where('holder_id', '=', param('holderId')).where(OCCUPYING);
  return occupying()
    .where('occupied_start', '>=', param('from'))
    .where('occupied_start', '<', param('to'))
    .unionAll(
      db
        .selectFrom(
          occupying()
            .where('occupied_start', '<', param('from'))
            .orderBy('occupied_start', 'desc')
            // A literal: a bound LIMIT makes SQLite re-plan the statement on every run.
            .limit(sql.lit(1))
            .as('previous'),
        )
        .selectAll(),
    );
});
const BOOKING_COLUMNS = [
  'id',
  'holder_id',
  'event_type_id',
  'start_at',
  'end_at',
  'occupied_start',
  'occupied_end',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'status',
  'guest_name',
  'guest_email',
  'guest_time_zone',
  'notes',
  'cancellation_reason',
  'cancelled_at',
  'rescheduled_from_id',
  'rescheduled_to_id',
  'created_at',
  'updated_at',
  'expires_at',
  'answers',
  'metadata',
  'source',
  'page_session',
  'page_client',
] as const satisfies ReadonlyArray<keyof Database['bookings']>;
/**
 * `on conflict do nothing`: on PostgreSQL the exclusion constraint then refuses an overlapping
 * confirmed booking by inserting nothing instead of raising, and checks it by speculative
 * insertion, which waits for a conflicting transaction before its own row exists. A plain insert
 * enters its row first and then waits: two overlapping inserts each waited for the other, a
 * deadlock PostgreSQL broke after a second by failing one. SQLite has no such constraint (and no
 * other unique index on bookings but the random id), so the clause never fires there.
 */
const insertBookingRow = compiledOnce<Database['bookings']>()((db, param) =>
  db
    .insertInto('bookings')
    .values(
      Object.fromEntries(BOOKING_COLUMNS.map((column) => [column, param(column)])) as unknown as Database['bookings'],
    )
    .onConflict((conflict) => conflict.doNothing())
    .returning('id'),
);

/** Inserts a booking's or a hold's row: false, inserting nothing, when the database refused its time. */
export async function insertOccupyingRow(
  db: Kysely<Database>,
  engine: EngineTraits,
  row: Database['bookings'],
): Promise<boolean> {
  return (await insertBookingRow(db, engine, row)).length === 1;
}

export class KyselyBookings extends Table implements BookingWrites {
  async get(holderId: string, id: string): Promise<Booking | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('status', '<>', HELD)
      .executeTakeFirst();
    return row && toBooking(row);
  }

  listConfirmed(holderId: string, query: BookingQuery): Promise<Booking[]> {
    return this.confirmed(this.db.selectFrom('bookings').selectAll().where('holder_id', '=', holderId), query);
  }

  listConfirmedOfAccount(filter: AccountFilter, query: BookingQuery): Promise<Booking[]> {
    // Deleted holders too: their past bookings stay readable by the account.
    return this.confirmed(ofAccount(this.db.selectFrom('bookings').selectAll(), this.db, filter), query);
  }

  private async confirmed(
    bookings: SelectQueryBuilder<Database, 'bookings', Selectable<Database['bookings']>>,
    query: BookingQuery,
  ): Promise<Booking[]> {
    let select = bookings
      .where(NOT_HELD)
      .where('status', '=', CONFIRMED)
      .where('start_at', '>=', query.from)
      .where('start_at', '<', query.to);
    if (query.eventTypeId !== null) select = select.where('event_type_id', '=', query.eventTypeId);
    const rows = await keysetPage(select, { key: 'start_at', id: 'id' }, query).execute();
    return rows.map(toBooking);
  }

  async holderOf(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .select('holder_id')
      .where('id', '=', id)
      .where('status', '<>', HELD)
      .executeTakeFirst();
    return row?.holder_id;
  }

  async listAnyStatus(holderId: string, from: Instant, to: Instant, limit: number): Promise<Booking[]> {
    const rows = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where(NOT_HELD)
      .where('start_at', '>=', from)
      .where('start_at', '<', to)
      .orderBy('start_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toBooking);
  }

  async occupanciesOverlapping(
    holderId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]> {
    if (this.engine.occupanciesOverlapping)
      return toOccupancies(await this.engine.occupanciesOverlapping(this.db, holderId, from, to), excludeBookingId);
    const rows = await occupanciesFrom(this.db, this.engine, { holderId, from, to });
    return toOccupancies(
      rows.filter((row) => Number(row.occupied_end) > from),
      excludeBookingId,
    );
  }

  async occupanciesStartingIn(
    holderId: string,
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]> {
    const rows = await occupanciesStartingBetween(this.db, this.engine, {
      holderId,
      occupiedFrom: from - MAX_BUFFER_MS,
      occupiedTo: to,
      eventTypeId,
      from,
      to,
    });
    return toOccupancies(rows, excludeBookingId);
  }

  async insert(booking: Booking): Promise<boolean> {
    this.scope.writes(booking.holderId);
    return insertOccupyingRow(this.db, this.engine, bookingRow(booking));
  }

  async update(booking: Booking, from: BookingStatus): Promise<boolean> {
    this.scope.writes(booking.holderId);
    const result = await this.db
      .updateTable('bookings')
      .set(bookingRow(booking))
      .where('holder_id', '=', booking.holderId)
      .where('id', '=', booking.id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
