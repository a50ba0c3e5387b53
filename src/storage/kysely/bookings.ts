import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Booking, BookingStatus } from '../../domain/booking.js';
import type { Instant } from '../../domain/instant.js';
import type { AccountFilter, BookingQuery, BookingWrites, StoredOccupancy } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { compiledOnce } from './compiled-once.js';
import { bookingRow, HELD, toBooking, toOccupancies, type BookingRow } from './rows.js';
import { keysetPage } from './keyset.js';
import { ofAccount } from './of-account.js';
import { OverlapViolation } from '../../app/ports/storage-errors.js';
import { occupy, occupanciesOverlapping, occupanciesStartingIn, release, type Occupying } from './occupancies.js';
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
/** A booking's or hold's row; its account is its holder's (a team booking's, its event type's: issue 28). */
const insertBookingRow = compiledOnce<BookingRow>()((db, param) =>
  db.insertInto('bookings').values({
    ...(Object.fromEntries(BOOKING_COLUMNS.map((column) => [column, param(column)])) as BookingRow),
    account_id: db.selectFrom('holders').select('account_id').where('id', '=', param('holder_id')),
  }),
);

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
  await insertBookingRow(db, engine, row);
  if (occupying === null || (await occupy(db, engine, occupying))) return true;
  // Its occupancies written so far go with it (`on delete cascade`).
  await db.deleteFrom('bookings').where('id', '=', row.id).execute();
  return false;
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
    return row?.holder_id ?? undefined;
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
    return toOccupancies(await occupanciesOverlapping(this.db, this.engine, holderId, from, to), excludeBookingId);
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

  async insert(booking: Booking): Promise<boolean> {
    this.scope.writes(...booking.hostIds);
    return insertOccupyingRow(
      this.db,
      this.engine,
      bookingRow(booking),
      booking.status === 'confirmed' ? { ...booking, expiresAt: null } : null,
    );
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
    // Cancelled or moved away: its time is free.
    if (from === 'confirmed' && booking.status !== 'confirmed') await release(this.db, booking.id);
    // Back to confirmed (no use case makes this move): it must take its time again.
    if (
      from !== 'confirmed' &&
      booking.status === 'confirmed' &&
      !(await occupy(this.db, this.engine, { ...booking, expiresAt: null }))
    )
      throw new OverlapViolation('occupancies_no_overlap');
    return true;
  }
}
