import type { Kysely } from 'kysely';
import type {
  IdempotencyClaim,
  IdempotencyLedger,
  IdempotencyOutcome,
  StoredResponse,
} from '../../app/ports/idempotency-ledger.js';
import type { Database } from '../schema.js';
import type { EngineTraits } from './engine-traits.js';
import { Table } from './table.js';
import { NOTHING_CACHED, type TransactionRunner } from './transactions.js';

/** The Idempotency-Key ledger, each operation a transaction of its own. */
export class KyselyIdempotencyLedger implements IdempotencyLedger {
  constructor(
    private readonly engine: EngineTraits,
    private readonly transactions: TransactionRunner,
  ) {}

  claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
    return this.transactions.retrying((connection) => this.rows(connection).claim(claim), NOTHING_CACHED);
  }

  async complete(requester: string, key: string, response: StoredResponse): Promise<void> {
    await this.transactions.retrying(
      (connection) => this.rows(connection).complete(requester, key, response),
      NOTHING_CACHED,
    );
  }

  async release(requester: string, key: string): Promise<void> {
    await this.transactions.retrying((connection) => this.rows(connection).release(requester, key), NOTHING_CACHED);
  }

  private rows(connection: Kysely<Database>): LedgerRows {
    return new LedgerRows(connection, this.engine);
  }
}

class LedgerRows extends Table {
  async claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
    const fresh = {
      request_hash: claim.requestHash,
      state: 'in_flight',
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    };
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({ requester: claim.requester, key: claim.key, ...fresh })
      .onConflict((oc) => oc.columns(['requester', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'started' };
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('requester', '=', claim.requester)
      .where('key', '=', claim.key)
      .executeTakeFirstOrThrow();
    const expired = Number(row.expires_at) <= claim.now;
    const abandoned = row.state === 'in_flight' && Number(row.created_at) <= claim.staleBefore;
    if (expired || abandoned) {
      await this.db
        .updateTable('idempotency_keys')
        .set(fresh)
        .where('requester', '=', claim.requester)
        .where('key', '=', claim.key)
        .execute();
      return { kind: 'started' };
    }
    if (row.request_hash !== claim.requestHash) return { kind: 'mismatch' };
    if (row.state === 'in_flight') return { kind: 'in-flight' };
    return {
      kind: 'replay',
      response: {
        status: Number(row.response_status),
        headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
        body: row.response_body ?? '',
      },
    };
  }

  async complete(requester: string, key: string, response: StoredResponse): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({
        state: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
      })
      .where('requester', '=', requester)
      .where('key', '=', key)
      .execute();
  }

  async release(requester: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('requester', '=', requester).where('key', '=', key).execute();
  }
}
