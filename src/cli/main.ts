#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '../app/api-keys.js';
import type { AppContext } from '../app/context.js';
import { ConfigError, loadConfig, parseDuration, type Config } from '../config.js';
import { openStore } from '../storage/open-store.js';
import { SCOPES, type Scope } from '../storage/store.js';

const USAGE = `Usage: slotwise <command> [options]

Commands:
  serve                          Run the API on HOST:PORT (default 127.0.0.1:3000)
  keys create --holder NAME [--scopes read,write|*] [--expires-in 90d]
                                 Create an API key; prints the key alone on stdout
  keys list [--json]             List keys (id, holder, scopes, created, expiry, revoked)
  keys revoke KEY_ID             Revoke a key; takes effect on the next request
  migrate                        Apply database migrations and exit

Environment: DATABASE_URL (default sqlite:./data/slotwise.db), DATABASE_POOL_SIZE,
DATABASE_STATEMENT_TIMEOUT_MS, HOST, PORT, LOG_LEVEL, RATE_LIMIT_PER_MINUTE,
WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_POLL_INTERVAL_MS.`;

const COMMAND_USAGE = {
  serve: 'Usage: slotwise serve\n\nRuns the API and the webhook delivery worker on HOST:PORT until SIGTERM or SIGINT.',
  migrate:
    'Usage: slotwise migrate\n\nApplies pending database migrations of DATABASE_URL and exits (the server also does this at start).',
  keys: 'Usage: slotwise keys <create|list|revoke> [options]\n\nRun `slotwise keys <command> --help` for each.',
  'keys create':
    'Usage: slotwise keys create --holder NAME [--scopes read,write|*] [--expires-in 90d]\n\n' +
    'Creates an API key for NAME (and the holder, on first use of the name). The key is printed alone on\n' +
    'stdout and never shown again; everything else goes to stderr. Scopes default to read,write.\n' +
    '--expires-in takes 30m, 12h, 90d, 2w and the like.',
  'keys list':
    'Usage: slotwise keys list [--json]\n\nLists keys: id, holder, scopes, created, expiry, revoked (never the key).',
  'keys revoke':
    'Usage: slotwise keys revoke KEY_ID\n\nRevokes a key; the next request with it gets 401. Exits 1 if no active key has that id.',
} as const;

/** Exit codes scripts can rely on. */
const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Strict parsing: an unknown flag or a stray argument is a usage error (exit 2). */
function commandArgs<O extends OptionSpec>(args: string[], options: O, positionals = false) {
  return parseArgs({ args, options, allowPositionals: positionals, strict: true });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('A command is needed.');
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    // Help needs no valid configuration.
    const sub = command === 'keys' && rest[0] && !rest[0].startsWith('-') ? `keys ${rest[0]}` : command;
    const usage = (COMMAND_USAGE as Record<string, string>)[sub];
    if (!usage) throw new UsageError(`Unknown command "${sub}".`);
    process.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      commandArgs(rest, {});
      return serve(config);
    case 'migrate': {
      commandArgs(rest, {});
      const store = await openConfiguredStore(config);
      await store.close();
      process.stderr.write('Migrations are up to date.\n');
      return EXIT.ok;
    }
    case 'keys':
      return keys(config, rest);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

async function keys(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'create') {
    const { values } = commandArgs(rest, {
      holder: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in': { type: 'string' },
    });
    if (!values.holder?.trim()) throw new UsageError('keys create needs --holder NAME.');
    const scopes = parseScopes(values.scopes ?? 'read,write');
    const expiresInMs = values['expires-in'] === undefined ? null : parseExpiry(values['expires-in']);
    return withContext(config, async (context) => {
      const now = context.now();
      const { key, token } = await createApiKey(context, {
        holderName: values.holder!.trim(),
        scopes,
        expiresAt: expiresInMs === null ? null : now + expiresInMs,
      });
      process.stderr.write(
        `Created key ${key.id} for holder "${key.holderName}" with scopes ${key.scopes.join(',')}` +
          `${key.expiresAt ? `, expiring ${new Date(key.expiresAt).toISOString()}` : ''}. It is shown only now:\n`,
      );
      process.stdout.write(`${token}\n`);
      return EXIT.ok;
    });
  }
  if (sub === 'list') {
    const { values } = commandArgs(rest, { json: { type: 'boolean' } });
    return withContext(config, async (context) => {
      const keys = await listApiKeys(context.store);
      const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
      if (values.json) {
        const rows = keys.map((k) => ({
          id: k.id,
          holder: k.holderName,
          scopes: k.scopes,
          createdAt: iso(k.createdAt),
          expiresAt: k.expiresAt === null ? null : iso(k.expiresAt),
          revokedAt: k.revokedAt === null ? null : iso(k.revokedAt),
        }));
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        const header = ['ID', 'HOLDER', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED'];
        const rows = keys.map((k) => [
          k.id,
          k.holderName,
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

/** Opens DATABASE_URL's store, or fails with a message that names it (without its password). */
async function openConfiguredStore(config: Config) {
  try {
    return await openStore(config.database, config.postgres);
  } catch (error) {
    const where = config.database.kind === 'postgres' ? redact(config.database.url) : config.database.filename;
    throw new Error(`cannot open the database ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

async function withContext(config: Config, work: (context: AppContext) => Promise<number>): Promise<number> {
  const store = await openConfiguredStore(config);
  try {
    return await work({ store, now: Date.now, webhooks: { allowPrivateTargets: config.webhooks.allowPrivateTargets } });
  } finally {
    await store.close();
  }
}

/** How long shutdown waits for requests, then for webhook attempts, in flight. */
const SHUTDOWN_GRACE_MS = 10_000;

async function serve(config: Config): Promise<number> {
  // Loaded here, not at the top: the key commands start twice as fast without the HTTP stack.
  const [
    { buildApp },
    { Metrics },
    { MemoryRequestCounter, StoreRequestCounter },
    { DeliveryWorker },
    { WebhookSender },
    { pino },
  ] = await Promise.all([
    import('../http/build-app.js'),
    import('../http/metrics.js'),
    import('../http/rate-limit.js'),
    import('../worker/delivery-worker.js'),
    import('../worker/send-webhook.js'),
    import('pino'),
  ]);
  const store = await openConfiguredStore(config);
  const sender = new WebhookSender({
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
  });
  let worker: InstanceType<typeof DeliveryWorker> | undefined;
  const context: AppContext = {
    store,
    now: Date.now,
    webhooks: { allowPrivateTargets: config.webhooks.allowPrivateTargets },
    outboxChanged: () => worker?.wake(),
  };
  const metrics = new Metrics(store);
  const logDestination = bufferedStdout(pino);
  const app = await buildApp(context, {
    logger: { level: config.logLevel, stream: logDestination },
    requestLog: ['info', 'debug', 'trace'].includes(config.logLevel) ? logDestination : undefined,
    metrics,
    rateLimit: {
      perMinute: config.rateLimitPerMinute,
      // Instances over one PostgreSQL share each key's count there; one SQLite process counts in memory.
      counter: config.database.kind === 'postgres' ? new StoreRequestCounter(store) : new MemoryRequestCounter(),
    },
  });
  worker = new DeliveryWorker(
    store,
    sender,
    {
      retryScheduleMs: config.webhooks.retryScheduleMs,
      pollIntervalMs: config.webhooks.pollIntervalMs,
      // A claim outlives the longest attempt, so no other worker sends it while it is in flight.
      leaseMs: config.webhooks.timeoutMs + 5_000,
      concurrency: 64,
      perWebhook: 4,
      observe: (outcome) => metrics.observeDelivery(outcome),
    },
    Date.now,
    app.log,
  );
  await app.listen({ host: config.host, port: config.port });
  worker.start();
  if ((await store.countApiKeys()) === 0) {
    app.log.warn('No API keys yet: create one with `npx slotwise keys create --holder NAME --scopes read,write`.');
  }
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  app.log.info('shutting down: finishing requests and webhook attempts in flight');
  // In-flight requests get a bounded time to finish; then their connections are cut.
  const cutOff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await app.close();
  clearTimeout(cutOff);
  await worker.stop(SHUTDOWN_GRACE_MS);
  await sender.close();
  await store.close();
  return EXIT.ok;
}

/**
 * Log lines go to stdout in batches of about 8 KiB, and at least every quarter second: one
 * system call per request line was about a twentieth of a cached slot query. What is buffered is
 * written when the process exits, also after an uncaught error; only a killed process (SIGKILL,
 * power loss) can lose its last quarter second of lines.
 */
function bufferedStdout(logging: typeof import('pino').pino) {
  const destination = logging.destination({ dest: 1, minLength: 8192, sync: true });
  // A callback, so that a stream already ended at exit reports rather than throws.
  setInterval(() => destination.flush(() => {}), 250).unref();
  // Synchronous writes (as pino's default), so the rest can still be written while exiting.
  process.once('exit', () => destination.flushSync());
  return destination;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`slotwise: ${(error as Error).message}\n\n${USAGE}\n`);
      process.exitCode = EXIT.usage;
    } else if (error instanceof ConfigError) {
      process.stderr.write(`slotwise: ${error.message}\n`);
      process.exitCode = EXIT.failure;
    } else {
      process.stderr.write(`slotwise: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT.failure;
    }
  },
);
