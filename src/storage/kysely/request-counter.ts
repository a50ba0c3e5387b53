import { sql } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import type { RequestCounter } from '../../app/ports/request-counter.js';
import type { EngineTraits } from './engine-traits.js';
import { Table } from './table.js';
import type { TransactionRunner } from './transactions.js';

/** Counts in the database, so every instance over one PostgreSQL shares each key's limit. */
export class KyselyRequestCounter implements RequestCounter {
  constructor(
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
  ) {}

  count(apiKeyId: string, windowStart: Instant): Promise<number> {
    return this.transactions.retrying((connection) =>
      new WindowRows(connection, this.engine).count(apiKeyId, windowStart),
    );
  }
}

class WindowRows extends Table {
  async count(apiKeyId: string, windowStart: Instant): Promise<number> {
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ api_key_id: apiKeyId, window_start: windowStart, requests: 1 })
      .onConflict((oc) =>
        oc.columns(['api_key_id', 'window_start']).doUpdateSet({ requests: sql`rate_limit_windows.requests + 1` }),
      )
      .returning('requests')
      .executeTakeFirstOrThrow();
    if (Number(row.requests) === 1) {
      // A new window: the key's older ones are finished with.
      await this.db
        .deleteFrom('rate_limit_windows')
        .where('api_key_id', '=', apiKeyId)
        .where('window_start', '<', windowStart)
        .execute();
    }
    return Number(row.requests);
  }
}
