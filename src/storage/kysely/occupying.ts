/**
 * PostgreSQL: the range the exclusion constraint on occupancies keeps apart (migration 0015),
 * which the overlap read names word for word to use the constraint's index.
 * test/storage/occupying-predicate.test.ts reads the constraint from the live database and fails
 * when it differs from this.
 */
export const OCCUPIED_RANGE = 'int8range(occupied_start, occupied_end)';

/**
 * How a decision's occupancy read (`EngineTraits.occupanciesOverlapping`) groups its rows, over a
 * source with `id` and the occupancy columns, at the instant bound as `now`: the live seats of an
 * occurrence together; each other row alone (an expired hold too, which the decision removes). The
 * seats of one occurrence share its time, so its columns are the same for them all; it takes the
 * smallest id of its seats, and is held until the last hold expires while every seat is a hold.
 */
export function judgedGrouping(id: string, now: string, seatNumbers: string): { columns: string; groups: string } {
  return {
    columns: `min(${id}) as id, event_type_id, start_at, occupied_start, occupied_end,
      case when count(expires_at) = count(*) then max(expires_at) end as expires_at,
      occurrence, min(seat) as seat, count(*) as seats, ${seatNumbers} as seat_numbers`,
    groups: `coalesce(occurrence, ${id}), case when expires_at <= ${now} then ${id} end,
      event_type_id, start_at, occupied_start, occupied_end, occurrence`,
  };
}
