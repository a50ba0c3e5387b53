import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { firstFreeSlug } from '../../domain/event-type.js';
import { handleFrom } from '../../domain/holder.js';
import type { Engine } from '../schema.js';

/**
 * Contract §12: accounts own holders. Every existing holder gets an account of its own, named
 * after it (so `keys create --holder NAME` keeps meaning that holder). Holder names become unique
 * within their account; a deleted holder (`deleted_at`) frees its name and handle. A key belongs
 * to an account, and to one of its holders or (an account key) to none; a webhook likewise
 * (an account webhook hears the whole account). Events record their account, by which delivery
 * is shared out fairly. Idempotency-Keys and rate-limit counts belong to a requester: the API
 * key, with the holder an account key acts for (`key_…/hdr_…`), so the column is renamed and no
 * longer references `api_keys`.
 *
 * SQLite cannot drop a column's `unique` or `not null`, so there the three tables are rebuilt
 * (copied aside, dropped, created anew, copied back), with foreign keys off and in one
 * transaction; PostgreSQL alters them in place.
 */
export default function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL runs every migration in a transaction of its own; SQLite runs none in one, and
      // its foreign keys can be turned off only outside a transaction.
      if (engine === 'postgres') return accounts(db, engine);
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute((tx) => accounts(tx, engine));
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0)
          throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

async function accounts(db: Kysely<any>, engine: Engine): Promise<void> {
  const instant = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_name').on('accounts').column('name').unique().execute();
  await db.schema.createIndex('accounts_handle').on('accounts').column('handle').unique().execute();
  await giveEachHolderAnAccount(db);
  if (engine === 'sqlite') await rebuildOnSqlite(db);
  else await alterOnPostgres(db);
  await db.schema
    .createIndex('holders_live_name')
    .on('holders')
    .columns(['account_id', 'name'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('holders_live_handle')
    .on('holders')
    .column('handle')
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('holders_by_account').on('holders').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('api_keys_by_holder').on('api_keys').columns(['holder_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('api_keys_by_account')
    .on('api_keys')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('webhooks_by_holder').on('webhooks').columns(['holder_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('webhooks_by_account')
    .on('webhooks')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
}

async function giveEachHolderAnAccount(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('holders').addColumn('account_id', 'text').execute();
  const holders = await db
    .selectFrom('holders')
    .select(['id', 'name', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const holder of holders) {
    const handle = firstFreeSlug(handleFrom(holder.name), taken);
    taken.add(handle);
    const id = accountId();
    await db
      .insertInto('accounts')
      .values({ id, name: holder.name, handle, created_at: holder.created_at, updated_at: holder.created_at })
      .execute();
    await db.updateTable('holders').set({ account_id: id }).where('id', '=', holder.id).execute();
  }
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The shape of `IdGenerator`'s ids (`app/ids.ts`), which storage does not import. */
function accountId(): string {
  let id = 'acc_';
  for (let i = 0; i < 20; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

async function alterOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table holders alter column account_id set not null`.execute(db);
  await sql`alter table holders add foreign key (account_id) references accounts (id)`.execute(db);
  await sql`alter table holders add column email text`.execute(db);
  await sql`alter table holders add column updated_at bigint`.execute(db);
  await sql`update holders set updated_at = created_at`.execute(db);
  await sql`alter table holders alter column updated_at set not null`.execute(db);
  await sql`alter table holders add column deleted_at bigint`.execute(db);
  await sql`alter table holders drop constraint holders_name_key`.execute(db);
  await sql`drop index holders_handle`.execute(db);

  await sql`alter table api_keys add column account_id text references accounts (id)`.execute(db);
  await sql`update api_keys set account_id = holders.account_id from holders where holders.id = api_keys.holder_id`.execute(
    db,
  );
  await sql`alter table api_keys alter column account_id set not null`.execute(db);
  await sql`alter table api_keys alter column holder_id drop not null`.execute(db);
  await sql`alter table api_keys add column description text`.execute(db);

  await sql`alter table webhooks add column account_id text references accounts (id)`.execute(db);
  await sql`update webhooks set account_id = holders.account_id from holders where holders.id = webhooks.holder_id`.execute(
    db,
  );
  await sql`alter table webhooks alter column account_id set not null`.execute(db);
  await sql`alter table webhooks alter column holder_id drop not null`.execute(db);
  await sql`drop index webhooks_by_holder`.execute(db);

  await sql`alter table idempotency_keys drop constraint idempotency_keys_api_key_id_fkey`.execute(db);
  await sql`alter table idempotency_keys rename column api_key_id to requester`.execute(db);
  await sql`alter table rate_limit_windows rename column api_key_id to requester`.execute(db);

  await sql`alter table webhook_events add column account_id text`.execute(db);
  await sql`update webhook_events set account_id = holders.account_id from holders where holders.id = webhook_events.holder_id`.execute(
    db,
  );
  await sql`alter table webhook_events alter column account_id set not null`.execute(db);

  // The change poll (migration 0009) hears of accounts too: an account key's revocation.
  await sql`alter table accounts add column changed_by xid8 not null default '0'`.execute(db);
  await sql`create index accounts_by_changing_transaction on accounts (changed_by)`.execute(db);
  await sql`
    create trigger accounts_changed before insert or update on accounts
    for each row execute function holder_changed()`.execute(db);
  await sql`
    create or replace function key_changed() returns trigger language plpgsql as $$
    begin
      if old.holder_id is null then
        update accounts set changed_by = pg_current_xact_id() where id = old.account_id;
      else
        update holders set changed_by = pg_current_xact_id() where id = old.holder_id;
      end if;
      return null;
    end $$`.execute(db);
}

/** Copies `table` aside and drops it, so that it can be created anew and `copyBack` fill it. */
async function rebuild(db: Kysely<any>, table: string, create: () => Promise<void>, copyBack: string): Promise<void> {
  const aside = `${table}_before_0011`;
  await sql`create table ${sql.table(aside)} as select * from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await create();
  await sql.raw(copyBack.replaceAll('$aside', `"${aside}"`)).execute(db);
  await sql`drop table ${sql.table(aside)}`.execute(db);
}

async function rebuildOnSqlite(db: Kysely<any>): Promise<void> {
  await rebuild(
    db,
    'holders',
    () =>
      db.schema
        .createTable('holders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text')
        .addColumn('email', 'text')
        .addColumn('feed_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('calendar_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'integer', (c) => c.notNull())
        .addColumn('deleted_at', 'integer')
        .execute(),
    `insert into holders (id, account_id, name, handle, display_name, feed_generation, calendar_version, created_at, updated_at)
     select id, account_id, name, handle, display_name, feed_generation, calendar_version, created_at, created_at from $aside`,
  );
  await rebuild(
    db,
    'api_keys',
    () =>
      db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('holder_id', 'text', (c) => c.references('holders.id'))
        .addColumn('digest', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'integer')
        .addColumn('revoked_at', 'integer')
        .execute(),
    `insert into api_keys (id, account_id, holder_id, digest, scopes, created_at, expires_at, revoked_at)
     select k.id, h.account_id, k.holder_id, k.digest, k.scopes, k.created_at, k.expires_at, k.revoked_at
       from $aside k join holders h on h.id = k.holder_id`,
  );
  await rebuild(
    db,
    'webhooks',
    () =>
      db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('holder_id', 'text', (c) => c.references('holders.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'integer', (c) => c.notNull())
        .execute(),
    `insert into webhooks (id, account_id, holder_id, url, events, description, active, secret, created_at, updated_at)
     select w.id, h.account_id, w.holder_id, w.url, w.events, w.description, w.active, w.secret, w.created_at, w.updated_at
       from $aside w join holders h on h.id = w.holder_id`,
  );
  await rebuild(
    db,
    'idempotency_keys',
    async () => {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('requester', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['requester', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
    },
    `insert into idempotency_keys
     select api_key_id, key, request_hash, state, response_status, response_headers, response_body, created_at, expires_at
       from $aside`,
  );
  await sql`alter table rate_limit_windows rename column api_key_id to requester`.execute(db);
  // Events keep their table (their holder stays required until team bookings, issue 28): the
  // account is a new column, set for every row here and by every insert.
  await sql`alter table webhook_events add column account_id text references accounts (id)`.execute(db);
  await sql`update webhook_events set account_id = (select account_id from holders where holders.id = webhook_events.holder_id)`.execute(
    db,
  );
}
