import type { Kysely } from 'kysely';
import type { ApiKey } from '../../domain/api-key.js';
import type { Instant } from '../../domain/instant.js';
import type { ApiKeyWrites, AuthenticatedKey } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import { toApiKey } from './rows.js';
import { Table } from './table.js';

function apiKeysQuery(db: Kysely<Database>) {
  return db
    .selectFrom('api_keys')
    .innerJoin('holders', 'holders.id', 'api_keys.holder_id')
    .select([
      'api_keys.id',
      'api_keys.holder_id',
      'holders.name as holder_name',
      'holders.handle as holder_handle',
      'api_keys.scopes',
      'api_keys.created_at',
      'api_keys.expires_at',
      'api_keys.revoked_at',
    ]);
}

const apiKeyByDigest = compiledOnce<{ digest: string }>()((db, param) =>
  apiKeysQuery(db).select('holders.calendar_version').where('api_keys.digest', '=', param('digest')),
);

export class KyselyApiKeys extends Table implements ApiKeyWrites {
  async findByDigest(digest: string): Promise<AuthenticatedKey | undefined> {
    const [row] = await apiKeyByDigest(this.db, this.engine, { digest });
    return row && { ...toApiKey(row), holderCalendarVersion: Number(row.calendar_version) };
  }

  async list(): Promise<ApiKey[]> {
    const rows = await apiKeysQuery(this.db).orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
    return rows.map(toApiKey);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(key: ApiKey, digest: string): Promise<void> {
    this.scope.writes(key.holderId);
    await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        holder_id: key.holderId,
        digest,
        scopes: key.scopes.join(','),
        created_at: key.createdAt,
        expires_at: key.expiresAt,
        revoked_at: key.revokedAt,
      })
      .execute();
  }

  async revoke(id: string, at: Instant): Promise<boolean> {
    this.scope.writesUnnamed('an API key');
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
