import pg from 'pg';
import { defineConfig, type UserConfig } from 'vitest/config';

const POSTGRES_ADMIN_URL = process.env.SLOTWISE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether the PostgreSQL half can run here, and if not, why. */
async function postgresAvailability(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query(`select 1 from pg_available_extensions where name = 'btree_gist'`);
    if (rows.length === 0) return { ok: false, reason: 'the btree_gist extension is not installed' };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `cannot connect to ${POSTGRES_ADMIN_URL}: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

export default defineConfig(async (): Promise<UserConfig> => {
  const postgres = await postgresAvailability();
  if (!postgres.ok) {
    const message = `PostgreSQL half of the test suite SKIPPED: ${postgres.reason}. Set SLOTWISE_TEST_POSTGRES_URL to an admin URL of a PostgreSQL 15+ with btree_gist to run it.`;
    if (process.env.SLOTWISE_REQUIRE_POSTGRES === '1')
      throw new Error(`${message} (SLOTWISE_REQUIRE_POSTGRES=1 makes this a failure)`);
    console.warn(`\n*** ${message} ***\n`);
  }
  // One prefix per run, inherited by the test processes; the postgres project's teardown drops its databases.
  process.env.SLOTWISE_TEST_PG_PREFIX ??= `slotwise_test_${Date.now().toString(36)}_${process.pid}`;
  return {
    test: {
      // better-sqlite3 is a native addon and the end-to-end tests spawn servers: separate processes
      // isolate them more faithfully than worker threads.
      pool: 'forks',
      // Most files wait on a database, a browser, a spawned server or a timer more than they compute:
      // three at once on the CI machine's two cores took the suite from 45 to 13 minutes (the
      // default, one fewer than the cores, ran one file at a time there).
      maxWorkers: 3,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // expect.poll waits for what a browser shows after a click or a form's POST, or for what a
      // server did meanwhile: the default second is too little on a loaded machine. A poll bounds
      // how long to wait, never how fast it must be; a call that measures passes its own timeout.
      expect: { poll: { timeout: 10_000 } },
      projects: [
        {
          extends: true as const,
          test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/postgres/**'] },
        },
        ...(postgres.ok
          ? [
              {
                extends: true as const,
                test: {
                  name: 'postgres',
                  // The store-dependent suites again, on PostgreSQL; the pure ones need no second run
                  // (test/README.md says which folder runs where).
                  include: [
                    'test/app/**/*.test.ts',
                    'test/http/**/*.test.ts',
                    'test/storage/**/*.test.ts',
                    'test/postgres/**/*.test.ts',
                  ],
                  env: { SLOTWISE_TEST_STORE: 'postgres' },
                  globalSetup: ['test/support/postgres-global-setup.ts'],
                },
              },
            ]
          : []),
      ],
    },
  };
});
