// Contract §1: the `slotwise` command line, run as the built binary against a real SQLite file.
import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createKey, ensureBuilt, runCli, startServer, tempStore, type Server, type TempStore } from './support.js';

let store: TempStore;
let env: Record<string, string>;
const servers: Server[] = [];
/** Started by the revoke test on `store`, which had a key before the server started. */
let keyedServer: Server | undefined;
const stores: TempStore[] = [];

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  stores.push(store);
  env = { DATABASE_URL: store.databaseUrl };
  // A key without expiry, there before any server starts on this store.
  await createKey(store.databaseUrl, 'owner');
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const s of stores) s.remove();
}, 60_000);

/** The key id `keys create` reports on stderr. */
function keyIdFrom(stderr: string): string {
  const match = /\b(key_[A-Za-z0-9]+)\b/.exec(stderr);
  if (!match) throw new Error(`no key id in: ${stderr}`);
  return match[1]!;
}

/** The holder a `GET /me` answer is about. */
function holderIdOf(me: { body: unknown }): string {
  const id = (me.body as { holder?: { id?: string } }).holder?.id;
  if (!id) throw new Error(`no holder in ${JSON.stringify(me.body)}`);
  return id;
}

interface ListedKey {
  id: string;
  account: string;
  holder: string | null;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

async function listJson(): Promise<ListedKey[]> {
  const result = await runCli(['keys', 'list', '--json'], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListedKey[];
}

// Each test spawns several CLI processes (and one a server), side by side with the others: on a
// loaded two-core CI run (vitest 1,505 s against 1,058 s the session before) two took over 30 s.
describe('slotwise keys', { timeout: 60_000 }, () => {
  // Independent of each other (each works on its own holder), so they run side by side.
  it.concurrent(
    'when keys create runs, then stdout is exactly the key (sw_…) on one line and everything else goes to stderr',
    async () => {
      const result = await runCli(['keys', 'create', '--holder', 'alice', '--scopes', 'read,write'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^sw_[A-Za-z0-9_-]+\n$/);
      expect(result.stdout.split('\n')).toHaveLength(2);
      // The explanation is on stderr, and it never repeats the key.
      expect(result.stderr).toMatch(/key_[A-Za-z0-9]+/);
      expect(result.stderr).toContain('alice');
      expect(result.stderr).not.toContain(result.stdout.trim());
    },
  );

  it.concurrent('when keys are listed, then id, holder and scopes show but never the key itself', async () => {
    const created = await runCli(['keys', 'create', '--holder', 'bob', '--scopes', 'read'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    const id = keyIdFrom(created.stderr);

    const [table, json] = await Promise.all([runCli(['keys', 'list'], env), listJson()]);
    expect(table.code, table.stderr).toBe(0);
    const header = table.stdout.split('\n')[0]!;
    expect(header).toMatch(/ID\s+ACCOUNT\s+HOLDER\s+SCOPES/);
    const row = table.stdout.split('\n').find((line) => line.startsWith(id));
    expect(row, table.stdout).toBeDefined();
    // --holder alone: the holder of an account of its own, named after it.
    expect(row!.split(/\s+/).slice(0, 4)).toEqual([id, 'bob', 'bob', 'read']);
    expect(table.stdout).not.toContain(key);
    expect(table.stdout).not.toContain(key.slice(3)); // not even without its prefix
    expect(table.stdout).not.toMatch(/\bsw_/);

    expect(json.find((k) => k.id === id)).toMatchObject({
      id,
      account: 'bob',
      holder: 'bob',
      scopes: ['read'],
      expiresAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(json)).not.toContain(key);
  });

  it.concurrent(
    'when a key is created with --expires-in 1m, then its expiry is shown, about a minute ahead',
    async () => {
      const before = Date.now();
      const created = await runCli(['keys', 'create', '--holder', 'carol', '--expires-in', '1m'], env);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toMatch(/expir/i);
      const id = keyIdFrom(created.stderr);

      const table = await runCli(['keys', 'list'], env);
      const lines = table.stdout.split('\n');
      const column = lines[0]!.split(/\s+/).indexOf('EXPIRES');
      const row = lines.find((line) => line.startsWith(id));
      expect(row, table.stdout).toBeDefined();
      const expires = row!.split(/\s+/)[column]!;
      expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(expires)).toBeGreaterThanOrEqual(before + 60_000 - 1_000);
      expect(Date.parse(expires)).toBeLessThanOrEqual(Date.now() + 60_000 + 1_000);
      // A key without --expires-in shows none.
      const owner = lines.find((line) => line.split(/\s+/)[2] === 'owner');
      expect(owner, table.stdout).toBeDefined();
      expect(owner!.split(/\s+/)[column]).toBe('-');
    },
  );

  it.concurrent(
    'when a key is revoked with keys revoke ID, then the next request with it to a running server is 401',
    async () => {
      const [server, created] = await Promise.all([
        startServer(store.databaseUrl),
        runCli(['keys', 'create', '--holder', 'dave'], env),
      ]);
      servers.push(server);
      keyedServer = server;
      expect(created.code, created.stderr).toBe(0);
      const key = created.stdout.trim();
      const id = keyIdFrom(created.stderr);

      expect((await api(server, key, 'GET', '/api/v1/event-types')).status).toBe(200);

      const revoked = await runCli(['keys', 'revoke', id], env);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toBe('');

      const after = await api(server, key, 'GET', '/api/v1/event-types');
      expect(after.status).toBe(401);
      expect(after.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(after.body).toMatchObject({ type: 'urn:service:problem:unauthorized', status: 401 });
      expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);

      // Revoking it again, or an id that never existed, fails with exit code 1 and says why.
      const again = await Promise.all([id, 'key_doesnotexist'].map((other) => runCli(['keys', 'revoke', other], env)));
      for (const [i, result] of again.entries()) {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(i === 0 ? id : 'key_doesnotexist');
        expect(result.stdout).toBe('');
      }
    },
  );

  it.concurrent(
    'when keys create --account runs, then it makes an account key, and with --holder a key of that holder in that account',
    async () => {
      const accountKey = await runCli(['keys', 'create', '--account', 'acme', '--scopes', 'read'], env);
      expect(accountKey.code, accountKey.stderr).toBe(0);
      expect(accountKey.stderr).toContain('account key');
      const holderKey = await runCli(['keys', 'create', '--account', 'acme', '--holder', 'ada'], env);
      expect(holderKey.code, holderKey.stderr).toBe(0);
      // The same holder name in another account is another holder.
      const elsewhere = await runCli(['keys', 'create', '--account', 'globex', '--holder', 'ada'], env);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);

      const [table, json] = await Promise.all([runCli(['keys', 'list'], env), listJson()]);
      const rowOf = (id: string) =>
        table.stdout
          .split('\n')
          .find((line) => line.startsWith(id))
          ?.split(/\s+/)
          .slice(0, 4);
      expect(rowOf(keyIdFrom(accountKey.stderr))).toEqual([keyIdFrom(accountKey.stderr), 'acme', '-', 'read']);
      expect(rowOf(keyIdFrom(holderKey.stderr))).toEqual([keyIdFrom(holderKey.stderr), 'acme', 'ada', 'read,write']);
      expect(json.find((k) => k.id === keyIdFrom(accountKey.stderr))).toMatchObject({ account: 'acme', holder: null });
      expect(json.find((k) => k.id === keyIdFrom(elsewhere.stderr))).toMatchObject({
        account: 'globex',
        holder: 'ada',
      });

      const server = await startServer(store.databaseUrl);
      servers.push(server);
      const ada = await api(server, holderKey.stdout.trim(), 'GET', '/api/v1/me');
      const adaElsewhere = await api(server, elsewhere.stdout.trim(), 'GET', '/api/v1/me');
      expect(ada.status).toBe(200);
      expect(holderIdOf(ada)).not.toBe(holderIdOf(adaElsewhere));
      // The account key acts for ada with the header, and only for ada of its own account.
      const acting = await api(server, accountKey.stdout.trim(), 'GET', '/api/v1/me', undefined, {
        'slotwise-holder': holderIdOf(ada),
      });
      expect(acting.status).toBe(200);
      expect(holderIdOf(acting)).toBe(holderIdOf(ada));
      const foreign = await api(server, accountKey.stdout.trim(), 'GET', '/api/v1/me', undefined, {
        'slotwise-holder': holderIdOf(adaElsewhere),
      });
      expect(foreign.status).toBe(404);
    },
  );

  const badInvocations: Array<[string, string[]]> = [
    ['keys create without --holder or --account', ['keys', 'create']],
    ['keys create with an empty account name', ['keys', 'create', '--account', ' ']],
    ['keys create with a line break in the account name', ['keys', 'create', '--account', 'eve\nx']],
    ['keys create with a line break in the holder name', ['keys', 'create', '--holder', 'eve\r\nBEGIN:VEVENT']],
    ['keys create with a tab in the holder name', ['keys', 'create', '--holder', 'eve\tx']],
    ['keys create with an unknown scope', ['keys', 'create', '--holder', 'eve', '--scopes', 'read,admin']],
    ['keys create with an unknown flag', ['keys', 'create', '--holder', 'eve', '--colour', 'red']],
    ['keys create with --expires-in 0m', ['keys', 'create', '--holder', 'eve', '--expires-in', '0m']],
    ['keys create with --expires-in 5x', ['keys', 'create', '--holder', 'eve', '--expires-in', '5x']],
    ['keys list with an unknown flag', ['keys', 'list', '--all']],
    ['keys revoke without an id', ['keys', 'revoke']],
    ['keys with an unknown subcommand', ['keys', 'rotate']],
    ['an unknown command', ['frobnicate']],
    ['serve with an unexpected argument', ['serve', '--port', '1234']],
  ];
  for (const [name, args] of badInvocations) {
    it.concurrent(
      `when the CLI is called with ${name}, then it exits with code 2 and says what is wrong on stderr`,
      async () => {
        const result = await runCli(args, env);
        expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(2);
        expect(result.stderr).toMatch(/^slotwise: \S/);
        expect(result.stdout).toBe('');
      },
    );
  }

  it('when a bad call is made, then no key was created', async () => {
    const names = (await listJson()).flatMap((k) => [k.account, k.holder ?? '']);
    expect(names.filter((name) => name.startsWith('eve'))).toEqual([]);
  });

  it('when a setting in the environment is invalid, then the CLI exits with code 1 and names the setting', async () => {
    const result = await runCli(['keys', 'list'], { ...env, LOG_LEVEL: 'loud', PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOG_LEVEL');
    expect(result.stderr).toContain('PORT');
    expect(result.stdout).toBe('');
  });

  it('when SMTP_URL is set without EMAIL_FROM, then the CLI exits with code 1 and names EMAIL_FROM', async () => {
    const result = await runCli(['keys', 'list'], { ...env, SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('EMAIL_FROM is required with SMTP_URL');
  });
});

describe('slotwise serve', () => {
  it('when serve starts on a store without keys, then it logs a line telling how to create one', async () => {
    const empty = tempStore();
    stores.push(empty);
    const server = await startServer(empty.databaseUrl);
    servers.push(server);
    // The hint is logged right after listening; give the pipe a moment.
    const deadline = Date.now() + 5_000;
    while (!server.output().includes('keys create') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('keys create'));
    expect(lines, server.output()).toHaveLength(1);
    expect(lines[0]).toMatch(/--holder/);
    // Without SMTP_URL the start says that no e-mail is sent (contract §16).
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('no e-mail is sent')),
    ).toHaveLength(1);
    // Nothing but the log's JSON lines: no runtime warning (an experimental API in use prints one).
    expect(server.output()).not.toMatch(/Warning/);
  });

  it('when serve starts on a store that has keys, then it does not ask for one', async () => {
    // Started by the revoke test above, on the store that had the owner's key from the start.
    expect(keyedServer).toBeDefined();
    expect(keyedServer!.output()).not.toContain('keys create');
  });
});

describe('slotwise migrate, two processes at once', () => {
  // SQLite has no migration lock: a process that runs a migration the other has just run (and
  // not yet recorded) must wait for the record, not fail to start.
  // Three rounds of two pairs of processes, each starting Node and migrating a store: over 30 s
  // on a loaded machine.
  it('when two processes migrate the same SQLite file at once, a new one or one written before accounts, then both succeed', async () => {
    for (const round of [1, 2, 3]) {
      const fresh = tempStore();
      const upgraded = tempStore();
      stores.push(fresh, upgraded);
      const file = upgraded.databaseUrl.slice('sqlite:'.length);
      copyFileSync(new URL('../fixtures/before-accounts/slotwise.db', import.meta.url), file);
      copyFileSync(
        new URL('../fixtures/before-accounts/slotwise.secret', import.meta.url),
        join(dirname(file), 'slotwise.secret'),
      );
      for (const url of [fresh.databaseUrl, upgraded.databaseUrl]) {
        const results = await Promise.all([1, 2].map(() => runCli(['migrate'], { DATABASE_URL: url })));
        for (const result of results) expect(result.code, `round ${round}, ${url}: ${result.stderr}`).toBe(0);
      }
    }
  }, 90_000);
});
