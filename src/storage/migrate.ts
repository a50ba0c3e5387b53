import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database, Engine } from './schema.js';

/**
 * Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock for the whole run, so
 * instances starting together take turns. SQLite has no such lock and runs no migration in a
 * transaction of Kysely's, so a process starting at the same moment as another can lose the
 * upgrade to a write lock (SQLITE_BUSY), or run a migration the other has just run and not yet
 * recorded (its tables "already exist", or recording it breaks Kysely's unique name);
 * PostgreSQL can race on creating Kysely's own bookkeeping tables. Either way the winner's work
 * is then visible, and recorded a moment later, and a retry finds nothing left to do.
 */
export async function migrateToLatest(db: Kysely<Database>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const migrator = new Migrator({ db, provider });
  const started = Date.now();
  let outcome = await migrator.migrateToLatest();
  for (
    let attempt = 1;
    Date.now() - started < RACE_PATIENCE_MS && (isRaceLost(outcome.error) || (await ranElsewhere(db, engine, outcome)));
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(25 * attempt, 500)));
    outcome = await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // No migration ran: the database was not reachable or usable at all; its own error says why.
    if (!failed) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed} failed (${engine}): ${reason}`);
  }
}

/**
 * How long a process that lost the race keeps trying: as long as the winner's migrations may take.
 * Counted in time, not attempts: SQLite's rebuilds of a large table (migrations 0011, 0015, 0016)
 * take seconds, more on a loaded machine, and twenty short attempts ran out before the winner
 * was done (measured: CI on a 2-core VM, the before-accounts fixture migrated by two processes).
 */
const RACE_PATIENCE_MS = 120_000;

function isRaceLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return false;
  // SQLITE_BUSY*, PostgreSQL unique_violation (catalog race), duplicate_table, deadlock_detected
  return code.startsWith('SQLITE_BUSY') || code === '23505' || code === '42P07' || code === '40P01';
}

/**
 * SQLite: whether the migration that failed was run by another process meanwhile (it is
 * recorded as run within a moment of the failure), so the failure was that process's work
 * getting there first.
 */
async function ranElsewhere(
  db: Kysely<Database>,
  engine: Engine,
  outcome: Awaited<ReturnType<Migrator['migrateToLatest']>>,
): Promise<boolean> {
  if (engine !== 'sqlite' || !outcome.error) return false;
  const failed = outcome.results?.find((r) => r.status === 'Error')?.migrationName;
  if (!failed) return false;
  for (let wait = 0; wait < 10; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const pending: string[] = await pendingMigrations(db, engine).catch(() => [failed]);
    if (!pending.includes(failed)) return true;
  }
  return false;
}

/** Names of migrations the database has not run yet. */
export async function pendingMigrations(db: Kysely<Database>, engine: Engine): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
