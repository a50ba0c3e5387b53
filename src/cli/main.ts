#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, loadMcpClientConfig } from '../config.js';
import { openConfiguredStorage } from './database.js';
import { keys } from './keys.js';
import { EXIT, UsageError, commandArgs } from './usage.js';

const USAGE = `Usage: slotwise <command> [options]

Commands:
  serve                          Run the API on HOST:PORT (default 127.0.0.1:3000)
  keys create --holder NAME [--scopes read,write|*] [--expires-in 90d]
                                 Create an API key; prints the key alone on stdout
  keys list [--json]             List keys (id, holder, scopes, created, expiry, revoked)
  keys revoke KEY_ID             Revoke a key; takes effect on the next request
  migrate                        Apply database migrations and exit
  mcp                            The MCP tools over stdio, calling the API at SLOTWISE_URL with
                                 SLOTWISE_API_KEY (and SLOTWISE_HOLDER, optional)

Environment: DATABASE_URL (default sqlite:./data/slotwise.db), DATABASE_POOL_SIZE,
DATABASE_STATEMENT_TIMEOUT_MS, SLOTWISE_SECRET (required on PostgreSQL), HOST, PORT, LOG_LEVEL, RATE_LIMIT_PER_MINUTE, AUTH_FAILURE_RATE_LIMIT_PER_MINUTE,
TRUST_PROXY,
WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_POLL_INTERVAL_MS,
WEBHOOK_LIMIT_PER_HOLDER, WEBHOOK_RETENTION_DAYS, HOLDERS_PER_ACCOUNT, KEYS_PER_HOLDER, SCHEDULES_PER_HOLDER,
TEAM_EVENT_TYPES_PER_ACCOUNT.`;

const COMMAND_USAGE = {
  serve: 'Usage: slotwise serve\n\nRuns the API and the webhook delivery worker on HOST:PORT until SIGTERM or SIGINT.',
  migrate:
    'Usage: slotwise migrate\n\nApplies pending database migrations of DATABASE_URL and exits (the server also does this at start).',
  mcp:
    'Usage: slotwise mcp\n\nServes the MCP tools (contract §17) over stdin/stdout for a local agent. They call the API at\n' +
    'SLOTWISE_URL with SLOTWISE_API_KEY; with an account key, SLOTWISE_HOLDER names the holder to act for\n' +
    '(each tool also takes holderId). Needs no database.',
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
  if (command === 'mcp') {
    commandArgs(rest, {});
    // Loaded here: the other commands need none of it. A client of the API, so no configuration of a server.
    const { serveMcpOverStdio } = await import('./mcp.js');
    await serveMcpOverStdio(loadMcpClientConfig());
    return EXIT.ok;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      commandArgs(rest, {});
      // V8 lets the old generation grow to four times what was live after the last full
      // collection when the machine has a few GB of memory. Under a load of many connections,
      // each request's own objects (parsed request, session, page) outlive two young collections
      // while it waits its turn, so they pile up there as garbage: the booking pages took a
      // server from 140 to 200–266 MB of RSS (docs/performance.md, issue 16). Growing by half
      // keeps it near 160 MB with no throughput cost above the noise; V8 reads the flag at each
      // full collection, so setting it here (not in a start script) covers every way of starting.
      // The young generation's bound (`--max-semi-space-size=8`, 32 → 16 MB resident) is fixed
      // when V8 starts: `npm start` passes it (package.json).
      setFlagsFromString('--heap-growing-percent=50');
      const storage = await openConfiguredStorage(config);
      // Loaded here, not at the top: the key commands start twice as fast without the HTTP stack.
      const { serve } = await import('../server.js');
      await serve(config, storage);
      return EXIT.ok;
    }
    case 'migrate': {
      commandArgs(rest, {});
      const storage = await openConfiguredStorage(config);
      await storage.close();
      process.stderr.write('Migrations are up to date.\n');
      return EXIT.ok;
    }
    case 'keys':
      return keys(config, rest);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
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
