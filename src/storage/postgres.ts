import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { HolderDeleted, OverlapViolation, StoreUnavailable, UniqueViolation } from '../app/ports/storage-errors.js';
import { HOLDER_DELETED_SQLSTATE } from './migrations/0013_bookings_of_deleted_holders.js';
import { activeWebhooksFrom } from './kysely/webhooks.js';
import type { EngineTraits, HolderOccupancyRow, JudgedOccupancyRow } from './kysely/engine-traits.js';
import { kyselyStorage } from './kysely/storage.js';
import { judgedGrouping, OCCUPIED_RANGE } from './kysely/occupying.js';
import { portDialect, type QueryTally } from './kysely/translated-errors.js';
import { ChangeLog } from './change-log.js';
import { PostgresChangePoll, type ChangePollTiming } from './postgres-change-poll.js';
import { isStalePlan, preparingClient, StatementNames } from './postgres-prepared.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import type { Storage } from './storage.js';

export interface PostgresOptions {
  /** `postgres://user:pass@host:port/db?sslmode=require`: TLS settings come from the URL. */
  connectionString: string;
  poolSize: number;
  statementTimeoutMs: number;
  /** How often other processes' changes are asked for, and how long an answer is relied on (tests change them). */
  changePoll?: ChangePollTiming;
}

const INT8_OID = 20;

/**
 * PostgreSQL store: a pool of connections; every write transaction runs on one held client (a
 * failed query on `pool.query` makes pg discard and reopen the connection, ~9 ms per conflict),
 * under READ COMMITTED, and is retried on serialization failures and deadlocks. Booking decisions
 * run concurrently: the exclusion constraint on occupying bookings and holds decides overlaps (the
 * insert is `on conflict do nothing`), and a daily cap is counted again under the holder's row
 * lock (`lockCalendar`), taken after the insert (`occupy` in app/bookings.ts).
 */
export async function openPostgresStorage(options: PostgresOptions): Promise<Storage> {
  const pool = new pg.Pool({
    Client: preparingClient(new StatementNames()),
    connectionString: options.connectionString,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    // Waiting for a connection (the pool busy, or the server unreachable) is bounded as a statement is.
    connectionTimeoutMillis: options.statementTimeoutMs,
    // Epoch milliseconds are bigint columns; they fit a JavaScript number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A client losing its connection (the server restarting, `pg_terminate_backend`) must not crash
  // the process: idle ones the pool drops and replaces; one checked out between two queries
  // fails its next query (StoreUnavailable) and is dropped when released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const queries: QueryTally = { sent: 0 };
  const db = new Kysely<Database>({ dialect: portDialect(new PostgresDialect({ pool }), translate, queries) });
  try {
    await migrateToLatest(db, 'postgres');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const poll = new PostgresChangePoll(options.connectionString, options.changePoll);
  return kyselyStorage(db, POSTGRES, new ChangeLog(poll), queries, () => poll.close());
}

const JUDGED = judgedGrouping('booking_id', '$4', `string_agg(seat::text, ',')`);
/** The exclusion constraint's expressions, word for word (`kysely/occupying.ts`), which is what lets its index serve. */
export const OVERLAPPING_OCCUPANCIES = `select ${JUDGED.columns}
  from occupancies where holder_id = $1 and ${OCCUPIED_RANGE} && int8range($2, $3) and booking_id <> $5
  group by ${JUDGED.groups}
  order by occupied_start`;
/**
 * The same for each holder of a JSON array, each through that index by holder and range (a seek
 * per holder). `offset 0` keeps the lateral subquery from being flattened into a join, which
 * the planner made a hash join over every holder's occupancies in the range.
 */
export const OVERLAPPING_OCCUPANCIES_OF = `select h.holder_id, o.id, o.event_type_id, o.start_at, o.occupied_start, o.occupied_end, o.expires_at, o.occurrence, o.seat
  from jsonb_array_elements_text($1::jsonb) as h(holder_id)
  cross join lateral (
    select booking_id as id, event_type_id, start_at, occupied_start, occupied_end, expires_at, occurrence, seat
      from occupancies where occupancies.holder_id = h.holder_id and ${OCCUPIED_RANGE} && int8range($2, $3)
      offset 0) as o`;

const POSTGRES: EngineTraits = {
  name: 'postgres',
  begin: 'begin',
  // `no key update`: the lock the commit's `calendar_version` bump takes too. A booking's insert
  // holds `key share` on its holder row (the foreign key), which `for update` would wait for:
  // two capped bookings, each inserted and then locking, waited for each other.
  async lockCalendar(db, holderId) {
    await sql`select id from holders where id = ${holderId} for no key update`.execute(db);
  },
  // A team type's daily cap, counted again after the inserts: `no key update`, which the foreign
  // keys of its bookings (`key share`) do not wait for.
  async lockTeamEventType(db, eventTypeId) {
    await sql`select id from event_types where id = ${eventTypeId} for no key update`.execute(db);
  },
  // Write transactions run concurrently: rows are locked before they are changed or deleted…
  lockingRows: (query) => query.forUpdate(),
  sharingRows: (query) => query.forShare(),
  keepingRows: (query) => query.forKeyShare(),
  // …and a claim (deliveries, messages) passes over rows another worker's claim holds.
  claimingRowsOf: (alias) => sql`for update of ${sql.raw(alias)} skip locked`,
  skippingLocked: sql`for update skip locked`,
  sharedSourceCount: (holderIdColumn) =>
    sql<number>`(select count(*) from (select id from calendar_sources where holder_id = ${sql.ref(holderIdColumn)} for share) as shared)`,
  activeWebhooks: (holderIdColumn, accountIdColumn) =>
    sql<string>`(select coalesce(json_agg(json_build_object('id', w.id, 'events', w.events) order by w.created_at, w.id), '[]')::text
      from ${activeWebhooksFrom(holderIdColumn, accountIdColumn)})`,
  // The exclusion constraint's GiST index finds exactly the overlapping rows, by holder and range
  // at once. The shared query (two seeks of the btree occupancy index) leaves the planner a choice
  // it got wrong whenever its statistics lagged behind a holder's bookings (a new database, a
  // holder taking hundreds of bookings a minute): the GiST index by holder alone, every booking
  // of the holder read on each decision (measured: 0.45 ms a statement, a third fewer bookings/s).
  async occupanciesOverlapping(db, holderId, from, to, now, excludeBookingId) {
    const parameters = [holderId, from, to, now, excludeBookingId];
    return (await db.executeQuery<JudgedOccupancyRow>(CompiledQuery.raw(OVERLAPPING_OCCUPANCIES, parameters))).rows;
  },
  insertsInWith: true,
  async occupanciesOverlappingOf(db, holderIdsJson, from, to) {
    return (
      await db.executeQuery<HolderOccupancyRow>(
        CompiledQuery.raw(OVERLAPPING_OCCUPANCIES_OF, [holderIdsJson, from, to]),
      )
    ).rows;
  },
  // An array, not `in (select …)`: the planner then estimates a few rows and seeks them through
  // the index; a set-returning function it takes for a hundred rows, and scanned small tables.
  oneOf: (column, idsJson) =>
    sql<boolean>`${sql.ref(column)} = any(array(select jsonb_array_elements_text(cast(${idsJson} as jsonb))))`,
  groupCommit: false,
  isRetryable,
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * serialization_failure, deadlock_detected: the transaction saw nothing durable; run it again. So
 * too when a prepared statement's columns changed under it (see `preparingClient`).
 */
function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01' || isStalePlan(error);
}

function translate(error: unknown): unknown {
  const code = codeOf(error);
  if (code === '23505') return new UniqueViolation((error as { constraint?: string }).constraint ?? 'unique');
  if (code === '23P01') return new OverlapViolation((error as { constraint?: string }).constraint ?? 'exclusion');
  if (code === HOLDER_DELETED_SQLSTATE) return new HolderDeleted();
  const unavailable = unavailability(code, error);
  return unavailable
    ? new StoreUnavailable(unavailable.reason, unavailable.retryAfterSeconds, { cause: error })
    : error;
}

/** Node's errors for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's errors for a connection that ended or never came (they carry no code). */
const LOST_CONNECTION =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|connection .*(?:closed|ended)/i;

function unavailability(
  code: string | undefined,
  error: unknown,
): { reason: string; retryAfterSeconds: number } | null {
  // 57014 query_canceled (statement_timeout), 55P03 lock_not_available: busy, not down.
  if (code === '57014' || code === '55P03') return { reason: 'The database is busy', retryAfterSeconds: 1 };
  // 53xxx insufficient resources (connections, disk, memory); 08xxx connection exceptions;
  // 57P01–57P03 the server shutting down, crashed or starting.
  if (code !== undefined && /^(?:53|08|57P0[1-3])/.test(code))
    return { reason: 'The database is unavailable', retryAfterSeconds: 5 };
  if (code !== undefined && NETWORK_CODES.has(code))
    return { reason: 'The database is unreachable', retryAfterSeconds: 5 };
  if (error instanceof Error && code === undefined && LOST_CONNECTION.test(error.message))
    return { reason: 'The connection to the database was lost', retryAfterSeconds: 5 };
  return null;
}
