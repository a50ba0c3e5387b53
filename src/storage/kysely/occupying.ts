/**
 * PostgreSQL: the range the exclusion constraint on occupancies keeps apart (migration 0015),
 * which the overlap read names word for word to use the constraint's index.
 * test/storage/occupying-predicate.test.ts reads the constraint from the live database and fails
 * when it differs from this.
 */
export const OCCUPIED_RANGE = 'int8range(occupied_start, occupied_end)';
