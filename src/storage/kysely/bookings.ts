import { sql, type Kysely, type QueryCreator, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Booking, BookingStatus } from '../../domain/booking.js';
import type { Instant } from '../../domain/instant.js';
import type {
  AccountFilter,
  BookingQuery,
  BookingWrites,
  Ownership,
  Reach,
  Seat,
  StoredOccupancy,
} from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { compiledOnce, compiledPerCount, type RowParam } from './compiled-once.js';
import { bookingRow, HELD, toBooking, toJudgedOccupancies, toOccupancies, type BookingRow } from './rows.js';
import { keysetPage } from './keyset.js';
import { OverlapViolation } from '../../app/ports/storage-errors.js';
import {
  occupy,
  occupanciesOfEventTypeStartingIn,
  occupanciesOverlapping,
  occupanciesOverlappingOf,
  occupanciesStartingIn,
  release,
  type Occupying,
} from './occupancies.js';
import { Table } from './table.js';

/**
 * Written into the SQL, not bound: the booking indexes are partial (`where status = 'confirmed'`),
 * and SQLite re-plans a statement on every run when a bound value decides whether such an index applies.
 */
const CONFIRMED = sql.lit('confirmed');
/** Bookings in every status, holds left out: the predicate of `bookings_by_start` (migration 0007), word for word. */
const NOT_HELD = sql<boolean>`status <> 'held'`;

const BOOKING_COLUMNS = [
  'id',
  'holder_id',
  'host_ids',
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
  'guest_language',
  'notes',
  'cancellation_reason',
  'cancelled_at',
  'rescheduled_from_id',
  'rescheduled_to_id',
  'appointment_id',
  'appointment_moves',
  'created_at',
  'updated_at',
  'expires_at',
  'answers',
  'metadata',
  'source',
  'page_session',
  'page_client',
  'location',
] as const satisfies ReadonlyArray<keyof Database['bookings']>;
/**
 * A booking's or hold's row as a compiled insert's values, each column its own parameter (`value`);
 * its account is its event type's (a holder's own type's account is its holder's; a team type's,
 * the account that owns it).
 */
const bookingValues = (
  db: QueryCreator<Database>,
  value: <Column extends keyof BookingRow>(column: Column) => BookingRow[Column],
) => ({
  ...(Object.fromEntries(BOOKING_COLUMNS.map((column) => [column, value(column)])) as BookingRow),
  account_id: db.selectFrom('event_types').select('account_id').where('id', '=', value('event_type_id')),
});

const insertBookingRow = compiledOnce<BookingRow>()((db, param) =>
  db.insertInto('bookings').values(bookingValues(db, param)),
);

/**
 * The row and the one occupancy of a booking or hold of one host, in one statement (where the
 * engine `insertsInWith`): the occupancy's insert is `occupy`'s, `on conflict do nothing`, and
 * returns nothing when the database refused its time (the row, inserted all the same, is then
 * removed as `insertOccupyingRow` removes it).
 */
const insertRowWithOccupancy = compiledOnce<
  BookingRow & { occupancy_holder_id: string; occurrence: string | null; seat: number | null }
>()((db, param) =>
  db
    .with('booking', (db) =>
      db
        .insertInto('bookings')
        .values(bookingValues(db, param))
        .returning(['id', 'event_type_id', 'start_at', 'occupied_start', 'occupied_end', 'expires_at']),
    )
    .insertInto('occupancies')
    .columns([
      'booking_id',
      'holder_id',
      'event_type_id',
      'start_at',
      'occupied_start',
      'occupied_end',
      'expires_at',
      'occurrence',
      'seat',
    ])
    .expression((db) =>
      db
        .selectFrom('booking')
        .select([
          'id',
          sql<string>`cast(${param('occupancy_holder_id')} as text)`.as('holder_id'),
          'event_type_id',
          'start_at',
          'occupied_start',
          'occupied_end',
          'expires_at',
          sql<string | null>`cast(${param('occurrence')} as text)`.as('occurrence'),
          sql<number | null>`cast(${param('seat')} as integer)`.as('seat'),
        ]),
    )
    .onConflict((conflict) => conflict.doNothing())
    .returning('holder_id'),
);

/** Rows `insertEach` writes in one statement (a batch of seats is at most 64, `BookingBatches`). */
const ROWS_AT_ONCE = 64;

/** A confirmed booking's row as `insertEach` writes it, with the seat its occupancy takes. */
type RowWithSeat = BookingRow & { occurrence: string | null; seat: number | null };
/** What of it its occupancy stores. */
const OCCUPYING_COLUMNS = [
  'id',
  'holder_id',
  'event_type_id',
  'start_at',
  'occupied_start',
  'occupied_end',
  'expires_at',
  'occurrence',
  'seat',
] as const satisfies ReadonlyArray<keyof RowWithSeat>;
type OccupyingRow = Pick<RowWithSeat, (typeof OCCUPYING_COLUMNS)[number]>;

const rowsOf = (db: QueryCreator<Database>, rowParam: RowParam<BookingRow>, count: number) =>
  Array.from({ length: count }, (_, index) => bookingValues(db, (column) => rowParam(index, column)));

/** Each row's occupancy of its holder, from the row's own values (a holder's own event type: its holder is its one host). */
const occupanciesOf = (rowParam: RowParam<OccupyingRow>, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    booking_id: rowParam(index, 'id'),
    holder_id: rowParam(index, 'holder_id') as string,
    event_type_id: rowParam(index, 'event_type_id'),
    start_at: rowParam(index, 'start_at'),
    occupied_start: rowParam(index, 'occupied_start'),
    occupied_end: rowParam(index, 'occupied_end'),
    expires_at: rowParam(index, 'expires_at'),
    occurrence: rowParam(index, 'occurrence'),
    seat: rowParam(index, 'seat'),
  }));

const occupying = (db: QueryCreator<Database>, rowParam: RowParam<OccupyingRow>, count: number) =>
  db
    .insertInto('occupancies')
    .values(occupanciesOf(rowParam, count))
    .onConflict((conflict) => conflict.doNothing())
    .returning('booking_id');

/**
 * `insertEach`'s rows and their occupancies in one statement, where the engine `insertsInWith`
 * (its foreign keys are checked at the statement's end, after both); each occupancy the database
 * refused returns nothing.
 */
const insertRowsWithOccupancies = compiledPerCount<RowWithSeat>(ROWS_AT_ONCE)((db, rowParam, count) =>
  occupying(
    db.with('booking', (db) =>
      db
        .insertInto('bookings')
        .values(rowsOf(db, rowParam, count))
        .returning('id'),
    ),
    rowParam,
    count,
  ),
);
/** Elsewhere, the rows, then their occupancies. */
const insertRows = compiledPerCount<BookingRow>(ROWS_AT_ONCE)((db, rowParam, count) =>
  db.insertInto('bookings').values(rowsOf(db, rowParam, count)),
);
const insertOccupanciesOfRows = compiledPerCount<OccupyingRow>(ROWS_AT_ONCE)(occupying);

/** A booking by id (a hold is none): who may see it, the reader decides (`reaches`). */
const ownerOfBooking = compiledOnce<{ id: string }>()((db, param) =>
  db
    .selectFrom('bookings')
    .select(['holder_id', 'account_id', 'host_ids'])
    .where('id', '=', param('id'))
    .where('status', '<>', sql.lit(HELD)),
);

const bookingById = compiledOnce<{ id: string }>()((db, param) =>
  db.selectFrom('bookings').selectAll().where('id', '=', param('id')).where('status', '<>', sql.lit(HELD)),
);

/** An occurrence's live seats on one host, counted from `occupancies_by_event_type` alone. */
const seatsOfOccurrence = compiledOnce<{
  holderId: string;
  occurrence: string;
  eventTypeId: string;
  start: Instant;
  now: Instant;
}>()((db, param) =>
  db
    .selectFrom('occupancies')
    .select((eb) => eb.fn.countAll<number | string>().as('seats'))
    .where('event_type_id', '=', param('eventTypeId'))
    .where('start_at', '=', param('start'))
    .where('holder_id', '=', param('holderId'))
    .where('occurrence', '=', param('occurrence'))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', param('now'))])),
);

/** Whether `reach` reaches the booking or hold of `row`: its holder, a host of a team one, or the account of a team one. */
export function reaches(
  reach: Reach,
  row: Pick<Selectable<Database['bookings']>, 'holder_id' | 'account_id'>,
  hostIds: readonly string[],
): boolean {
  if ('accountId' in reach) return row.holder_id === null && row.account_id === reach.accountId;
  return row.holder_id === reach.holderId || (row.holder_id === null && hostIds.includes(reach.holderId));
}

/** Whose a booking's or hold's row is. */
export function ownershipOf(
  row: Pick<Selectable<Database['bookings']>, 'holder_id' | 'account_id' | 'host_ids'>,
): Ownership {
  return row.holder_id !== null
    ? { holderId: row.holder_id }
    : { holderId: null, accountId: row.account_id, hostIds: JSON.parse(row.host_ids) as string[] };
}

/**
 * Writes a booking's or hold's row, then what it occupies, if anything (`occupy`): false, with
 * nothing written, when the database refused its time.
 */
export async function insertOccupyingRow(
  db: Kysely<Database>,
  engine: EngineTraits,
  row: BookingRow,
  occupying: Occupying | null,
): Promise<boolean> {
  if (engine.insertsInWith && occupying !== null && occupying.hostIds.length === 1) {
    const written = await insertRowWithOccupancy(db, engine, {
      ...row,
      occupancy_holder_id: occupying.hostIds[0]!,
      occurrence: occupying.seat?.occurrence ?? null,
      seat: occupying.seat?.number ?? null,
    });
    if (written.length > 0) return true;
  } else {
    await insertBookingRow(db, engine, row);
    if (occupying === null || (await occupy(db, engine, occupying))) return true;
  }
  // Its occupancies written so far go with it (`on delete cascade`).
  await db.deleteFrom('bookings').where('id', '=', row.id).execute();
  return false;
}

type BookingSelect = SelectQueryBuilder<any, any, Selectable<Database['bookings']>>;

/** Bookings in `(start, id)` order, as both halves of a merged list are. */
const byStartThenId = (a: Booking, b: Booking) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class KyselyBookings extends Table implements BookingWrites {
  async get(reach: Reach, id: string): Promise<Booking | undefined> {
    const [row] = await bookingById(this.db, this.engine, { id });
    if (!row) return undefined;
    const booking = toBooking(row);
    return reaches(reach, row, booking.hostIds) ? booking : undefined;
  }

  async bookedSpan(
    id: string,
  ): Promise<Pick<Booking, 'end' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'> | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .select(['end_at', 'buffer_before_minutes', 'buffer_after_minutes'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        end: Number(row.end_at),
        bufferBeforeMinutes: row.buffer_before_minutes,
        bufferAfterMinutes: row.buffer_after_minutes,
      }
    );
  }

  async ownerOf(id: string): Promise<Ownership | undefined> {
    const [row] = await ownerOfBooking(this.db, this.engine, { id });
    return row && ownershipOf(row);
  }

  listConfirmed(holderId: string, query: BookingQuery): Promise<Booking[]> {
    return this.ownAndHosted(
      this.db.selectFrom('bookings').selectAll().where('holder_id', '=', holderId),
      holderId,
      query,
    );
  }

  listConfirmedOfAccount(filter: AccountFilter, query: BookingQuery): Promise<Booking[]> {
    // Deleted holders' too: their past bookings stay readable by the account.
    const ofAccount = this.db.selectFrom('bookings').selectAll().where('account_id', '=', filter.accountId);
    if (filter.holderId === null) return this.confirmed(ofAccount, query);
    return this.ownAndHosted(ofAccount.where('holder_id', '=', filter.holderId), filter.holderId, query);
  }

  /**
   * A page of the holder's own confirmed bookings (`own`, by `bookings_by_start`) and one of the
   * team bookings it hosts (by `team_booking_hosts_by_holder`), merged into one page: each read
   * stays within its own index, however many bookings the rest of the account has.
   */
  private async ownAndHosted(own: BookingSelect, holderId: string, query: BookingQuery): Promise<Booking[]> {
    let hosted = this.hostedFrom(holderId, query.from, query.to).where('bookings.status', '=', CONFIRMED);
    if (query.eventTypeId !== null) hosted = hosted.where('t.event_type_id', '=', query.eventTypeId);
    const [ownPage, hostedRows] = await Promise.all([
      this.confirmed(own, query),
      keysetPage(hosted, { key: 't.start_at', id: 't.booking_id' }, query).execute(),
    ]);
    return [...ownPage, ...hostedRows.map(toBooking)].sort(byStartThenId).slice(0, query.limit);
  }

  /** The team bookings the holder hosts starting in [from, to), in any status. */
  private hostedFrom(holderId: string, from: Instant, to: Instant) {
    return this.db
      .selectFrom('team_booking_hosts as t')
      .innerJoin('bookings', 'bookings.id', 't.booking_id')
      .selectAll('bookings')
      .where('t.holder_id', '=', holderId)
      .where('t.start_at', '>=', from)
      .where('t.start_at', '<', to);
  }

  private async confirmed(bookings: BookingSelect, query: BookingQuery): Promise<Booking[]> {
    let select = bookings
      .where(NOT_HELD)
      .where('status', '=', CONFIRMED)
      .where('start_at', '>=', query.from)
      .where('start_at', '<', query.to);
    if (query.eventTypeId !== null) select = select.where('event_type_id', '=', query.eventTypeId);
    const rows = await keysetPage(select, { key: 'start_at', id: 'id' }, query).execute();
    return rows.map(toBooking);
  }

  async listAnyStatus(holderId: string, from: Instant, to: Instant, limit: number): Promise<Booking[]> {
    const [own, hosted] = await Promise.all([
      this.db
        .selectFrom('bookings')
        .selectAll()
        .where('holder_id', '=', holderId)
        .where(NOT_HELD)
        .where('start_at', '>=', from)
        .where('start_at', '<', to)
        .orderBy('start_at')
        .orderBy('id')
        .limit(limit)
        .execute(),
      this.hostedFrom(holderId, from, to).orderBy('t.start_at').orderBy('t.booking_id').limit(limit).execute(),
    ]);
    return [...own, ...hosted].map(toBooking).sort(byStartThenId).slice(0, limit);
  }

  async occupanciesOverlapping(
    holderId: string,
    from: Instant,
    to: Instant,
    now: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]> {
    return toJudgedOccupancies(
      await occupanciesOverlapping(this.db, this.engine, holderId, from, to, now, excludeBookingId),
    );
  }

  async occupanciesOverlappingOf(
    holderIds: readonly string[],
    from: Instant,
    to: Instant,
  ): Promise<Map<string, StoredOccupancy[]>> {
    const rows = await occupanciesOverlappingOf(this.db, this.engine, holderIds, from, to);
    return new Map([...rows].map(([holderId, ofHolder]) => [holderId, toOccupancies(ofHolder, undefined)]));
  }

  async occupanciesStartingIn(
    holderId: string,
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]> {
    return toOccupancies(
      await occupanciesStartingIn(this.db, this.engine, holderId, eventTypeId, from, to),
      excludeBookingId,
    );
  }

  async seatsTaken(
    holderId: string,
    occurrence: string,
    eventTypeId: string,
    start: Instant,
    now: Instant,
  ): Promise<number> {
    const [row] = await seatsOfOccurrence(this.db, this.engine, { holderId, occurrence, eventTypeId, start, now });
    return Number(row!.seats);
  }

  async occupanciesOfEventTypeStartingIn(
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]> {
    return toOccupancies(
      await occupanciesOfEventTypeStartingIn(this.db, this.engine, eventTypeId, from, to),
      excludeBookingId,
    );
  }

  insert(booking: Booking, seat: Seat | null = null): Promise<boolean> {
    return this.insertOne(booking, seat);
  }

  private async insertOne(booking: Booking, seat: Seat | null): Promise<boolean> {
    this.scope.writes(...booking.hostIds);
    const written = await insertOccupyingRow(
      this.db,
      this.engine,
      bookingRow(booking),
      booking.status === 'confirmed' ? { ...booking, expiresAt: null, seat } : null,
    );
    // A team booking is found by its hosts too (migration 0017), after its time was taken: a
    // refused booking leaves nothing to remove.
    if (written && booking.holderId === null)
      await this.db
        .insertInto('team_booking_hosts')
        .values(
          booking.hostIds.map((holderId) => ({
            booking_id: booking.id,
            holder_id: holderId,
            event_type_id: booking.eventTypeId,
            start_at: booking.start,
            created_at: booking.createdAt,
          })),
        )
        .execute();
    return written;
  }

  async insertEach(writes: ReadonlyArray<{ booking: Booking; seat: Seat | null }>): Promise<boolean[]> {
    // One alone (a booking whose start no other request asked for at once) as `insert` writes
    // it: on PostgreSQL its row and occupancy in one statement.
    if (writes.length <= 1) return Promise.all(writes.map(({ booking, seat }) => this.insertOne(booking, seat)));
    const { holderId } = writes[0]!.booking;
    if (holderId === null || writes.some((w) => w.booking.holderId !== holderId || w.booking.status !== 'confirmed'))
      throw new Error("insertEach stores confirmed bookings of one holder's own event type");
    this.scope.writes(holderId);
    // In seat-number order: a second process writing seats of the occurrence meets these at the
    // same first number, waits there for this transaction and holds none of the numbers after it.
    const ordered = [...writes].sort((a, b) => (a.seat?.number ?? 0) - (b.seat?.number ?? 0));
    const rows = ordered.map(({ booking, seat }) => ({
      ...bookingRow(booking),
      occurrence: seat?.occurrence ?? null,
      seat: seat?.number ?? null,
    }));
    const stored: Array<{ booking_id: string }> = [];
    for (let from = 0; from < rows.length; from += ROWS_AT_ONCE) {
      const chunk = rows.slice(from, from + ROWS_AT_ONCE);
      if (this.engine.insertsInWith) stored.push(...(await insertRowsWithOccupancies(this.db, this.engine, chunk)));
      else {
        await insertRows(
          this.db,
          this.engine,
          chunk.map(({ occurrence: _occurrence, seat: _seat, ...row }) => row),
        );
        const occupancies = chunk.map(
          (row) => Object.fromEntries(OCCUPYING_COLUMNS.map((column) => [column, row[column]])) as OccupyingRow,
        );
        stored.push(...(await insertOccupanciesOfRows(this.db, this.engine, occupancies)));
      }
    }
    const taken = new Set(stored.map((row) => row.booking_id));
    const refused = writes.filter(({ booking }) => !taken.has(booking.id)).map(({ booking }) => booking.id);
    if (refused.length > 0) await this.db.deleteFrom('bookings').where('id', 'in', refused).execute();
    return writes.map(({ booking }) => taken.has(booking.id));
  }

  async update(booking: Booking, from: BookingStatus): Promise<boolean> {
    this.scope.writes(...booking.hostIds);
    const result = await this.db
      .updateTable('bookings')
      .set(bookingRow(booking))
      .where('id', '=', booking.id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    // Cancelled or moved away: its time is free, and round robin no longer counts it (migration 0017).
    if (from === 'confirmed' && booking.status !== 'confirmed') {
      await release(this.db, booking.id);
      if (booking.holderId === null)
        await this.db
          .updateTable('team_booking_hosts')
          .set({ confirmed: 0 })
          .where('booking_id', '=', booking.id)
          .execute();
    }
    // Back to confirmed (no use case makes this move): it must take its time again.
    if (
      from !== 'confirmed' &&
      booking.status === 'confirmed' &&
      !(await occupy(this.db, this.engine, { ...booking, expiresAt: null, seat: null }))
    )
      throw new OverlapViolation('occupancies_no_overlap');
    return true;
  }
}
