import { createApiKey, listApiKeys, revokeApiKey } from '../app/api-keys.js';
import type { AppContext } from '../app/context.js';
import { IdGenerator } from '../app/ids.js';
import { parseDuration, type Config } from '../config.js';
import { SCOPES, type NamedKey, type Scope } from '../domain/api-key.js';
import { isOneLine } from '../domain/names.js';
import { openConfiguredStorage } from './database.js';
import { EXIT, UsageError, commandArgs } from './usage.js';

/** `slotwise keys create|list|revoke`. */
export async function keys(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'create') {
    const { values } = commandArgs(rest, {
      account: { type: 'string' },
      holder: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
    });
    const accountName = oneLineName('--account', values.account);
    const holderName = oneLineName('--holder', values.holder);
    if (accountName === null && holderName === null)
      throw new UsageError('keys create needs --holder NAME, --account NAME, or both.');
    const scopes = parseScopes(values.scopes ?? 'read,write');
    const expiresInMs = values['expires-in'] === undefined ? null : parseExpiry(values['expires-in']);
    return withContext(config, async (context) => {
      const now = context.now();
      // `--holder NAME` alone: the holder of that name in the account made for it, named after it.
      const { key, token } = await createApiKey(context, {
        accountName: accountName ?? holderName!,
        holderName,
        scopes,
        expiresAt: expiresInMs === null ? null : now + expiresInMs,
      });
      process.stderr.write(
        `Created ${key.holderName === null ? 'account key' : 'key'} ${key.id} for ${ownerOf(key)} with scopes ${key.scopes.join(',')}` +
          `${key.expiresAt ? `, expiring ${new Date(key.expiresAt).toISOString()}` : ''}. It is shown only now:\n`,
      );
      process.stdout.write(`${token}\n`);
      return EXIT.ok;
    });
  }
  if (sub === 'list') {
    const { values } = commandArgs(rest, { json: { type: 'boolean' } });
    return withContext(config, async (context) => {
      const keys = await listApiKeys(context);
      const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
      if (values.json) {
        const rows = keys.map((k) => ({
          id: k.id,
          account: k.accountName,
          holder: k.holderName,
          scopes: k.scopes,
          createdAt: iso(k.createdAt),
          expiresAt: k.expiresAt === null ? null : iso(k.expiresAt),
          revokedAt: k.revokedAt === null ? null : iso(k.revokedAt),
        }));
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        const header = ['ID', 'ACCOUNT', 'HOLDER', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED'];
        const rows = keys.map((k) => [
          k.id,
          k.accountName,
          k.holderName ?? '-',
          k.scopes.join(','),
          iso(k.createdAt),
          iso(k.expiresAt),
          iso(k.revokedAt),
        ]);
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
        for (const row of [header, ...rows])
          process.stdout.write(
            `${row
              .map((c, i) => c.padEnd(widths[i]!))
              .join('  ')
              .trimEnd()}\n`,
          );
      }
      return EXIT.ok;
    });
  }
  if (sub === 'revoke') {
    const { positionals } = commandArgs(rest, {}, true);
    if (positionals.length !== 1) throw new UsageError('keys revoke needs exactly one KEY_ID.');
    return withContext(config, async (context) => {
      if (!(await revokeApiKey(context, positionals[0]!))) {
        process.stderr.write(`No active key with id ${positionals[0]}.\n`);
        return EXIT.failure;
      }
      process.stderr.write(`Revoked ${positionals[0]}.\n`);
      return EXIT.ok;
    });
  }
  throw new UsageError(
    sub === undefined ? 'keys needs a subcommand: create, list or revoke.' : `Unknown keys subcommand "${sub}".`,
  );
}

/** A name given with `flag`, trimmed; null when the flag is absent. */
function oneLineName(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const name = value.trim();
  if (!name) throw new UsageError(`${flag} takes a name; got an empty one.`);
  if (!isOneLine(name))
    throw new UsageError(`${flag} takes a name on one line, without control characters (line breaks, tabs).`);
  return name;
}

function ownerOf(key: NamedKey): string {
  return key.holderName === null
    ? `account "${key.accountName}"`
    : `holder "${key.holderName}" of account "${key.accountName}"`;
}

function parseScopes(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(`--scopes takes a comma-separated list of ${SCOPES.join(', ')}; got "${text}".`);
  }
  return [...new Set(scopes)] as Scope[];
}

function parseExpiry(text: string): number {
  const ms = parseDuration(text.trim());
  if (ms === undefined)
    throw new UsageError(`--expires-in takes a positive duration like 30m, 12h, 90d or 2w; got "${text}".`);
  return ms;
}

/** What the key commands use: the store, the clock and ids; no caches, no HTTP. */
type KeysContext = Pick<AppContext, 'store' | 'now' | 'ids'>;

async function withContext(config: Config, work: (context: KeysContext) => Promise<number>): Promise<number> {
  const storage = await openConfiguredStorage(config);
  try {
    return await work({ store: storage.store, now: Date.now, ids: new IdGenerator() });
  } finally {
    await storage.close();
  }
}
