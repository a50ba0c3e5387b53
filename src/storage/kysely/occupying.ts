/**
 * The statuses that occupy time: confirmed bookings and holds (live or expired: the use cases tell
 * them apart). Word for word the predicate of the occupancy index and of PostgreSQL's exclusion
 * constraint, as migration 0006 created them (its text stays as it ran): SQLite uses a partial
 * index only when the query's terms contain the index's own term, and the constraint's GiST index
 * serves a query only with its predicate. test/storage/occupying-predicate.test.ts reads both
 * definitions from the live database and fails when they differ from this.
 */
export const OCCUPYING_STATUSES = "status in ('confirmed', 'held')";

/** PostgreSQL: the range the exclusion constraint keeps apart (migration 0006), which the overlap read names to use its index. */
export const OCCUPIED_RANGE = 'int8range(occupied_start, occupied_end)';
