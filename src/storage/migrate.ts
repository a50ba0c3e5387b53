import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database, Engine } from './schema.js';

/**
 * Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock for the whole run, so
 * instances starting together take turns. SQLite has no such lock and begins the migration
 * transaction deferred, so a process starting at the same moment as another can lose the upgrade
 * to a write lock (SQLITE_BUSY); PostgreSQL can race on creating Kysely's own bookkeeping tables.
 * Either way the winner's work is then visible and a retry finds nothing left to do.
 */
export async function migrateToLatest(db: Kysely<Database>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const migrator = new Migrator({ db, provider });
  let outcome = await migrator.migrateToLatest();
  for (let attempt = 1; attempt < 20 && isRaceLost(outcome.error); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
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

function isRaceLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return false;
  // SQLITE_BUSY*, PostgreSQL unique_violation (catalog race), duplicate_table, deadlock_detected
  return code.startsWith('SQLITE_BUSY') || code === '23505' || code === '42P07' || code === '40P01';
}

/** Names of migrations the database has not run yet. */
export async function pendingMigrations(db: Kysely<Database>, engine: Engine): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
