import type { Kysely } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import { occupancyOf } from '../../domain/booking.js';
import type { Seat } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import type { EngineTraits, HolderOccupancyRow, JudgedOccupancyRow, OccupancyRow } from './engine-traits.js';
import { compiledOnce } from './compiled-once.js';

/**
 * What a booking or hold occupies, one row per host (migration 0015). A row exists exactly while
 * its booking or hold occupies time, so no query here names a status: the rows are the occupied
 * time. Of one holder they never overlap but as seats of one occurrence (the rules, and on
 * PostgreSQL the exclusion constraint, hold that; an expired hold is removed before anything takes
 * its time).
 */

/** The columns every occupancy read returns, named as the engines' own reads name them. */
const OCCUPANCY_COLUMNS = [
  'booking_id as id',
  'event_type_id',
  'start_at',
  'occupied_start',
  'occupied_end',
  'expires_at',
  'occurrence',
  'seat',
] as const;

/** The longest buffer before a booking (the schemas' limit): how far before its start an occupancy may begin. */
export const MAX_BUFFER_MS = 1_440 * 60_000;

/**
 * A holder's occupancies of one event type starting in [from, to) (a daily cap's count), found
 * through the occupancy index: a start lies at most the longest buffer (a day) after its
 * occupancy's start, so the occupancies starting in [from − 1 day, to) hold them all.
 */
const startingBetween = compiledOnce<{
  holderId: string;
  occupiedFrom: Instant;
  occupiedTo: Instant;
  eventTypeId: string;
  from: Instant;
  to: Instant;
}>()((db, param) =>
  db
    .selectFrom('occupancies')
    .select(OCCUPANCY_COLUMNS)
    .where('holder_id', '=', param('holderId'))
    .where('occupied_start', '>=', param('occupiedFrom'))
    .where('occupied_start', '<', param('occupiedTo'))
    .where('event_type_id', '=', param('eventTypeId'))
    .where('start_at', '>=', param('from'))
    .where('start_at', '<', param('to')),
);

/** The holder's occupancies whose time (buffers included) overlaps [from, to), but `excludeBookingId`'s, as a decision judges them at `now`. */
export function occupanciesOverlapping(
  db: Kysely<Database>,
  engine: EngineTraits,
  holderId: string,
  from: Instant,
  to: Instant,
  now: Instant,
  excludeBookingId: string | undefined,
): Promise<JudgedOccupancyRow[]> {
  // No booking id is empty: excluding it excludes none.
  return engine.occupanciesOverlapping(db, holderId, from, to, now, excludeBookingId ?? '');
}

/** Each holder's occupancies whose time (buffers included) overlaps [from, to), by holder (every one of `holderIds` present). */
export async function occupanciesOverlappingOf(
  db: Kysely<Database>,
  engine: EngineTraits,
  holderIds: readonly string[],
  from: Instant,
  to: Instant,
): Promise<Map<string, HolderOccupancyRow[]>> {
  // Each holder once: the holders are joined to their rows.
  const json = JSON.stringify([...new Set(holderIds)]);
  const rows = await engine.occupanciesOverlappingOf(db, json, from, to);
  const byHolder = new Map(holderIds.map((id) => [id, [] as HolderOccupancyRow[]]));
  for (const row of rows) if (Number(row.occupied_end) > from) byHolder.get(row.holder_id)!.push(row);
  return byHolder;
}

/** The holder's occupancies of the event type starting in [from, to). */
export function occupanciesStartingIn(
  db: Kysely<Database>,
  engine: EngineTraits,
  holderId: string,
  eventTypeId: string,
  from: Instant,
  to: Instant,
): Promise<OccupancyRow[]> {
  return startingBetween(db, engine, {
    holderId,
    occupiedFrom: from - MAX_BUFFER_MS,
    occupiedTo: to,
    eventTypeId,
    from,
    to,
  });
}

/** An event type's occupancies starting in [from, to), whoever hosts them (`occupancies_by_event_type`). */
const ofEventTypeStartingBetween = compiledOnce<{ eventTypeId: string; from: Instant; to: Instant }>()((db, param) =>
  db
    .selectFrom('occupancies')
    .select(OCCUPANCY_COLUMNS)
    .where('event_type_id', '=', param('eventTypeId'))
    .where('start_at', '>=', param('from'))
    .where('start_at', '<', param('to')),
);

/** The event type's occupancies starting in [from, to), one per host: a team type's daily cap counts their ids. */
export function occupanciesOfEventTypeStartingIn(
  db: Kysely<Database>,
  engine: EngineTraits,
  eventTypeId: string,
  from: Instant,
  to: Instant,
): Promise<OccupancyRow[]> {
  return ofEventTypeStartingBetween(db, engine, { eventTypeId, from, to });
}

/**
 * `on conflict do nothing`: on PostgreSQL the exclusion constraint then refuses an overlapping
 * occupancy by inserting nothing instead of raising, and checks it by speculative insertion,
 * which waits for a conflicting transaction before its own row exists. A plain insert enters its
 * row first and then waits: two overlapping inserts each waited for the other, a deadlock
 * PostgreSQL broke after a second by failing one. The clause refuses a seat number a concurrent
 * seat took the same way (the unique index of migration 0025). On SQLite, which has one writer and
 * no such constraint, a decision's reads see every number taken, so the clause never fires there.
 */
const insertOccupancyRow = compiledOnce<Database['occupancies']>()((db, param) =>
  db
    .insertInto('occupancies')
    .values({
      booking_id: param('booking_id'),
      holder_id: param('holder_id'),
      event_type_id: param('event_type_id'),
      start_at: param('start_at'),
      occupied_start: param('occupied_start'),
      occupied_end: param('occupied_end'),
      expires_at: param('expires_at'),
      occurrence: param('occurrence'),
      seat: param('seat'),
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('holder_id'),
);

/** What a booking or hold occupies, and until when (a hold's expiry; null for a booking). */
export interface Occupying {
  id: string;
  hostIds: readonly string[];
  eventTypeId: string;
  start: Instant;
  end: Instant;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  expiresAt: Instant | null;
  /** The seat it takes (contract §15); null for what is not seated. */
  seat: Seat | null;
}

/**
 * Writes the occupancy of each host in sorted host order: two decisions over overlapping hosts
 * then meet at the first host they share, and the later waits there holding nothing of the hosts
 * after it (PostgreSQL's speculative insertion waits before its row exists). False when the
 * database refused a host's time (a concurrent decision took it); the caller removes what was
 * written (the booking's row, which its occupancies go with).
 */
export async function occupy(db: Kysely<Database>, engine: EngineTraits, occupying: Occupying): Promise<boolean> {
  const { occupiedStart, occupiedEnd } = occupancyOf(occupying);
  for (const holderId of [...occupying.hostIds].sort()) {
    const written = await insertOccupancyRow(db, engine, {
      booking_id: occupying.id,
      holder_id: holderId,
      event_type_id: occupying.eventTypeId,
      start_at: occupying.start,
      occupied_start: occupiedStart,
      occupied_end: occupiedEnd,
      expires_at: occupying.expiresAt,
      occurrence: occupying.seat?.occurrence ?? null,
      seat: occupying.seat?.number ?? null,
    });
    if (written.length === 0) return false;
  }
  return true;
}

/** Frees the time of a booking that no longer occupies it (cancelled, or moved away). */
export async function release(db: Kysely<Database>, bookingId: string): Promise<void> {
  await db.deleteFrom('occupancies').where('booking_id', '=', bookingId).execute();
}
