import { sql } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import type { SharedRequestCounts } from '../../app/ports/request-counter.js';
import type { EngineTraits } from './engine-traits.js';
import { Table } from './table.js';
import { NOTHING_CACHED, type TransactionRunner } from './transactions.js';

/** Counts in the database, so every instance over one PostgreSQL shares each key's limit. */
export class KyselyRequestCounts implements SharedRequestCounts {
  constructor(
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
  ) {}

  add(requester: string, windowStart: Instant, requests: number): Promise<number> {
    return this.transactions.retrying(
      (connection) => new WindowRows(connection, this.engine).add(requester, windowStart, requests),
      NOTHING_CACHED,
    );
  }
}

class WindowRows extends Table {
  async add(requester: string, windowStart: Instant, requests: number): Promise<number> {
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ requester: requester, window_start: windowStart, requests })
      .onConflict((oc) =>
        oc
          .columns(['requester', 'window_start'])
          .doUpdateSet({ requests: sql`rate_limit_windows.requests + ${requests}` }),
      )
      .returning('requests')
      .executeTakeFirstOrThrow();
    if (Number(row.requests) === requests) {
      // A new window: the key's older ones are finished with.
      await this.db
        .deleteFrom('rate_limit_windows')
        .where('requester', '=', requester)
        .where('window_start', '<', windowStart)
        .execute();
    }
    return Number(row.requests);
  }
}
