import type { ApiKey, NamedKey } from '../../domain/api-key.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { ApiKeyWrites, AuthenticatedKey } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { keysetPage } from './keyset.js';
import { toApiKey } from './rows.js';
import { Table } from './table.js';

const keyColumns = [
  'api_keys.id',
  'api_keys.account_id',
  'api_keys.holder_id',
  'api_keys.scopes',
  'api_keys.description',
  'api_keys.created_at',
  'api_keys.expires_at',
  'api_keys.revoked_at',
] as const;

// With its holder (none for an account key) and the holder's calendar version, in one statement.
const apiKeyByDigest = compiledOnce<{ digest: string }>()((db, param) =>
  db
    .selectFrom('api_keys')
    .leftJoin('holders', 'holders.id', 'api_keys.holder_id')
    .select(keyColumns)
    .select([
      'holders.name as holder_name',
      'holders.handle as holder_handle',
      'holders.calendar_version',
      'holders.deleted_at as holder_deleted_at',
    ])
    .where('api_keys.digest', '=', param('digest')),
);

export class KyselyApiKeys extends Table implements ApiKeyWrites {
  async findByDigest(digest: string): Promise<AuthenticatedKey | undefined> {
    const [row] = await apiKeyByDigest(this.db, this.engine, { digest });
    if (!row) return undefined;
    const key = toApiKey(row);
    const holder =
      key.holderId === null
        ? null
        : {
            id: key.holderId,
            accountId: key.accountId,
            name: row.holder_name!,
            handle: row.holder_handle!,
            calendarVersion: Number(row.calendar_version),
            deletedAt: row.holder_deleted_at === null ? null : Number(row.holder_deleted_at),
          };
    return { ...key, holder };
  }

  async get(id: string): Promise<ApiKey | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(keyColumns)
      .where('api_keys.id', '=', id)
      .executeTakeFirst();
    return row && toApiKey(row);
  }

  async listOf(holderId: string, page: PageRequest): Promise<ApiKey[]> {
    const query = this.db.selectFrom('api_keys').select(keyColumns).where('api_keys.holder_id', '=', holderId);
    const rows = await keysetPage(query, { key: 'api_keys.created_at', id: 'api_keys.id' }, page).execute();
    return rows.map(toApiKey);
  }

  async countUnrevoked(holderId: string): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('holder_id', '=', holderId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(): Promise<NamedKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .leftJoin('holders', 'holders.id', 'api_keys.holder_id')
      .select(keyColumns)
      .select(['accounts.name as account_name', 'holders.name as holder_name'])
      .orderBy('api_keys.created_at')
      .orderBy('api_keys.id')
      .execute();
    return rows.map((row) => ({ ...toApiKey(row), accountName: row.account_name, holderName: row.holder_name }));
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(key: ApiKey, digest: string): Promise<void> {
    this.scope.writes(key.holderId ?? key.accountId);
    await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        account_id: key.accountId,
        holder_id: key.holderId,
        digest,
        scopes: key.scopes.join(','),
        description: key.description,
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

  async revokeOf(holderId: string, id: string, at: Instant): Promise<boolean> {
    this.scope.writes(holderId);
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeAllOf(holderId: string, at: Instant): Promise<void> {
    this.scope.writes(holderId);
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('holder_id', '=', holderId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
