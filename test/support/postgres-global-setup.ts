import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './databases.js';

/**
 * The postgres project's databases are named `<SLOTWISE_TEST_PG_PREFIX>_…` (set once per run in
 * vitest.config.ts). Teardown drops this run's; set-up also drops those left by runs that were
 * killed more than an hour ago.
 */
export async function setup(): Promise<void> {
  await dropDatabases((name) => {
    const match = /^slotwise_test_([0-9a-z]+)_/.exec(name);
    return match !== null && Date.now() - parseInt(match[1]!, 36) > 3_600_000;
  });
}

export async function teardown(): Promise<void> {
  const prefix = process.env.SLOTWISE_TEST_PG_PREFIX!;
  await dropDatabases((name) => name.startsWith(`${prefix}_`));
}

async function dropDatabases(matches: (name: string) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like 'slotwise_test_%'`,
    );
    for (const { datname } of rows.filter((r) => matches(r.datname))) {
      await client.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await client.end();
  }
}
