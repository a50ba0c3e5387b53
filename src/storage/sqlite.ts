import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { StoreUnavailable, UniqueViolation } from '../app/ports/storage-errors.js';
import { activeWebhooksFrom } from './kysely/webhooks.js';
import type { EngineTraits, HolderOccupancyRow, JudgedOccupancyRow } from './kysely/engine-traits.js';
import { judgedGrouping } from './kysely/occupying.js';
import { kyselyStorage } from './kysely/storage.js';
import { portDialect, type QueryTally } from './kysely/translated-errors.js';
import { ChangeLog, DataVersionWatch } from './change-log.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import type { Storage } from './storage.js';

export interface SqliteOptions {
  /** A file path, or `:memory:`. */
  filename: string;
  /** How long a writer waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
  /**
   * The most the database may hold, in bytes (SQLite's `max_page_count`); a write that needs more
   * fails as a full disk does: 503, with reads still answered. At least the size the file has.
   */
  maxSizeBytes?: number;
}

/**
 * SQLite store: one connection per process (Kysely serialises its use), WAL so readers never
 * block the writer, `synchronous=FULL` so an acknowledged write survives power loss, and
 * `BEGIN IMMEDIATE` so concurrent writers, in this or another process, queue for the write lock
 * before reading what they will decide on.
 */
export async function openSqliteStorage(options: SqliteOptions): Promise<Storage> {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const connection = await openConnectionPatiently(options.filename, options.busyTimeoutMs ?? 5000);
  const queries: QueryTally = { sent: 0 };
  const db = new Kysely<Database>({
    dialect: portDialect(new SqliteDialect({ database: withStatementCache(connection) }), translate, queries),
  });
  await migrateToLatest(db, 'sqlite');
  if (options.maxSizeBytes !== undefined) {
    const pageSize = connection.pragma('page_size', { simple: true }) as number;
    connection.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxSizeBytes / pageSize))}`);
  }
  const dataVersion = connection.prepare('pragma data_version').pluck();
  const changes = new ChangeLog(new DataVersionWatch(() => dataVersion.get() as number));
  return kyselyStorage(db, SQLITE, changes, queries);
}

/**
 * `openConnection`, tried again for up to `busyTimeoutMs` while the file is locked: a process
 * opening the file while another opens or migrates it can find it locked where `busy_timeout`
 * does not wait (SQLite answers some lock conflicts at once, as in switching a file to WAL or
 * recovering one), which made one of two processes started together fail now and then (CI, two
 * `slotwise migrate` at once on a loaded 2-core VM).
 */
async function openConnectionPatiently(filename: string, busyTimeoutMs: number): Promise<SQLite.Database> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return openConnection(filename, busyTimeoutMs);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() - started > busyTimeoutMs)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * attempt, 250)));
    }
  }
}

/** A connection set up for durability and concurrency, whatever state the file is in. */
export function openConnection(filename: string, busyTimeoutMs: number): SQLite.Database {
  const connection = new SQLite(filename);
  try {
    connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
    connection.pragma('journal_mode = WAL');
    // better-sqlite3 leaves later connections to a WAL file at NORMAL: set it explicitly.
    connection.pragma('synchronous = FULL');
    connection.pragma('foreign_keys = ON');
    return connection;
  } catch (error) {
    connection.close();
    throw error;
  }
}

const MAX_CACHED_STATEMENTS = 500;

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours. The SQL
 * text of a query shape is always the same, so its prepared statement is kept and reused.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        // Shapes with a variable number of parameters (IN lists) could grow the map without bound.
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close: () => connection.close(),
  };
}

/**
 * For each holder of a JSON array, its occupancies from the last one starting before `from` (or
 * from `from`, for none) up to `to`: what the shared one-holder read takes two seeks for (those
 * starting in the range, and the one before), as one range of the occupancy index per holder, its
 * lower end sought first. `cross join` keeps the holders the outer loop. The caller drops those
 * ending by `from`.
 */
const OVERLAPPING_OCCUPANCIES_OF = `select o.holder_id, o.booking_id as id, o.event_type_id, o.start_at, o.occupied_start, o.occupied_end, o.expires_at, o.occurrence, o.seat
  from json_each(?) as h cross join occupancies as o
  where o.holder_id = h.value and o.occupied_start < ?
    and o.occupied_start >= coalesce(
      (select max(p.occupied_start) from occupancies as p where p.holder_id = h.value and p.occupied_start < ?), ?)`;

const JUDGED = judgedGrouping('id', '?', 'group_concat(seat)');
/**
 * A holder's occupancies that start in [from, to), and those that start last before `from`: apart
 * from the seats of one occurrence, which share its time exactly (contract §15), they never
 * overlap one another, so their ends ascend with their starts and no earlier one can reach
 * `from`. Two seeks of the occupancy index, however many lie before, grouped as a decision judges
 * them (`judgedGrouping`). Bound: holder, from, to, holder, holder, from, excluded id, from, now.
 */
const OVERLAPPING_OCCUPANCIES = `select ${JUDGED.columns}
  from (
    select booking_id as id, event_type_id, start_at, occupied_start, occupied_end, expires_at, occurrence, seat
      from occupancies where holder_id = ? and occupied_start >= ? and occupied_start < ?
    union all
    select booking_id as id, event_type_id, start_at, occupied_start, occupied_end, expires_at, occurrence, seat
      from occupancies where holder_id = ? and occupied_start =
        (select max(occupied_start) from occupancies where holder_id = ? and occupied_start < ?)
  )
  where id <> ? and occupied_end > ?
  group by ${JUDGED.groups}`;

/** SQLite's write transactions are exclusive: the calendar, and rows about to change, need no lock of their own. */
const SQLITE: EngineTraits = {
  name: 'sqlite',
  begin: 'begin immediate',
  lockCalendar: async () => {},
  lockTeamEventType: async () => {},
  lockingRows: (query) => query,
  sharingRows: (query) => query,
  keepingRows: (query) => query,
  sharedSourceCount: (holderIdColumn) =>
    sql<number>`(select count(*) from calendar_sources where holder_id = ${sql.ref(holderIdColumn)})`,
  activeWebhooks: (holderIdColumn, accountIdColumn) =>
    sql<string>`(select json_group_array(json_object('id', w.id, 'events', w.events) order by w.created_at, w.id)
      from ${activeWebhooksFrom(holderIdColumn, accountIdColumn)})`,
  async occupanciesOverlapping(db, holderId, from, to, now, excludeBookingId) {
    const parameters = [holderId, from, to, holderId, holderId, from, excludeBookingId, from, now];
    return (await db.executeQuery<JudgedOccupancyRow>(CompiledQuery.raw(OVERLAPPING_OCCUPANCIES, parameters))).rows;
  },
  async occupanciesOverlappingOf(db, holderIdsJson, from, to) {
    return (
      await db.executeQuery<HolderOccupancyRow>(
        CompiledQuery.raw(OVERLAPPING_OCCUPANCIES_OF, [holderIdsJson, to, from, from]),
      )
    ).rows;
  },
  oneOf: (column, idsJson) => sql<boolean>`${sql.ref(column)} in (select value from json_each(${idsJson}))`,
  claimingRowsOf: () => sql``,
  skippingLocked: sql``,
  insertsInWith: false,
  groupCommit: true,
  isRetryable: () => false,
};

function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return error;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return new UniqueViolation((error as Error).message);
  // Another process held the write lock past busy_timeout.
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StoreUnavailable('The database is busy', 1, { cause: error });
  // The disk is full (or max_page_count reached), or the file cannot be written or read.
  if (/^SQLITE_(?:FULL|IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL)/.test(code))
    return new StoreUnavailable('The database cannot be written', 5, { cause: error });
  return error;
}
