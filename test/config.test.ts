// src/config.ts: every environment variable loadConfig reads, its default, the values it accepts and
// the ones it rejects (each rejection names the variable and quotes the value), all problems reported
// in one ConfigError; and parseDuration, which WEBHOOK_RETRY_SCHEDULE and `keys create --expires-in` use.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, LOG_LEVELS, loadConfig, parseDuration, type Config } from '../src/config.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const MB = 1024 * 1024;

/** Written out rather than imported, so that a change of a default shows up here. */
const CALENDAR_DEFAULTS: Config['calendarSources'] = {
  allowPrivateTargets: false,
  limitPerHolder: 10,
  syncIntervalMs: 300_000,
  horizonDays: 366,
  timeoutMs: 15_000,
  maxBytes: 10 * MB,
  syncConcurrency: 4,
  parseQueueBytes: 32 * MB,
  maxEvents: 20_000,
  maxIntervals: 50_000,
  maxRecurrenceSteps: 100_000,
};

const DEFAULTS: Config = {
  host: '127.0.0.1',
  port: 3000,
  database: { kind: 'sqlite', filename: join(process.cwd(), 'data', 'slotwise.db') },
  databaseUrl: undefined,
  postgres: { poolSize: 10, statementTimeoutMs: 10_000 },
  sqlite: { maxSizeMb: 0 },
  publicBaseUrl: undefined,
  pages: { holdsPerHolder: 20, holdsPerClient: 2, requestsPerMinute: 60, fileRequestsPerMinute: 30, embedOrigins: [] },
  calendarSources: CALENDAR_DEFAULTS,
  accounts: { holdersPerAccount: 10_000, keysPerHolder: 50, schedulesPerHolder: 50, teamEventTypesPerAccount: 1_000 },
  email: undefined,
  secretKeys: [],
  logLevel: 'info',
  rateLimitPerMinute: 600,
  authFailuresPerMinute: 60,
  trustProxy: false,
  http: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    socketTimeoutMs: 60_000,
    maxConnections: 1024,
    maxConnectionsPerAddress: 64,
  },
  webhooks: {
    allowPrivateTargets: false,
    timeoutMs: 15_000,
    retryScheduleMs: [5_000, 5 * 60_000, 30 * 60_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
    pollIntervalMs: 1_000,
    limitPerHolder: 25,
    limitPerAccount: 25,
    concurrency: 128,
    concurrencyPerHolder: 16,
    concurrencyPerAccount: 32,
    retentionDays: 30,
  },
};

/** Every variable loadConfig reads. */
const VARIABLES = [
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATABASE_MAX_SIZE_MB',
  'PUBLIC_BASE_URL',
  'PUBLIC_HOLDS_PER_HOLDER',
  'PUBLIC_HOLDS_PER_CLIENT',
  'PUBLIC_RATE_LIMIT_PER_MINUTE',
  'PUBLIC_FILE_RATE_LIMIT_PER_MINUTE',
  'PUBLIC_EMBED_ORIGINS',
  'HOST',
  'PORT',
  'LOG_LEVEL',
  'RATE_LIMIT_PER_MINUTE',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'CALENDAR_ALLOW_PRIVATE_TARGETS',
  'CALENDAR_SOURCES_PER_HOLDER',
  'CALENDAR_SYNC_INTERVAL_MS',
  'CALENDAR_SYNC_TIMEOUT_MS',
  'CALENDAR_HORIZON_DAYS',
  'CALENDAR_MAX_SIZE_MB',
  'CALENDAR_SYNC_CONCURRENCY',
  'CALENDAR_PARSE_QUEUE_MB',
  'HOLDERS_PER_ACCOUNT',
  'KEYS_PER_HOLDER',
  'SCHEDULES_PER_HOLDER',
  'TEAM_EVENT_TYPES_PER_ACCOUNT',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_POLL_INTERVAL_MS',
  'WEBHOOK_LIMIT_PER_HOLDER',
  'WEBHOOK_LIMIT_PER_ACCOUNT',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_CONCURRENCY_PER_HOLDER',
  'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
  'WEBHOOK_RETENTION_DAYS',
  'AUTH_FAILURE_RATE_LIMIT_PER_MINUTE',
  'TRUST_PROXY',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'HTTP_SOCKET_TIMEOUT_MS',
  'HTTP_MAX_CONNECTIONS',
  'HTTP_MAX_CONNECTIONS_PER_ADDRESS',
  'SLOTWISE_SECRET',
  'SMTP_URL',
  'EMAIL_FROM',
  'EMAIL_PER_RECIPIENT_PER_HOUR',
] as const;

const KEY_A = 'a'.repeat(20) + '0123456789abcdefghijkl'; // 42 characters
const KEY_B = 'b'.repeat(32);
const PG_SECRET_MISSING =
  'SLOTWISE_SECRET is required with a PostgreSQL DATABASE_URL, the same on every instance: one or more keys of at least 32 characters, comma-separated, newest first (make one with `openssl rand -base64 32`)';
const shortKey = (where: string, length: number) =>
  `${where} is ${length} characters long; each key needs at least 32 (make one with \`openssl rand -base64 32\`)`;

/** The problems of the ConfigError loadConfig throws for `env`; fails the test if it throws nothing or something else. */
function problemsOf(env: NodeJS.ProcessEnv): string[] {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `loadConfig accepted ${JSON.stringify(env)}`).toBeInstanceOf(ConfigError);
  return (thrown as ConfigError).problems;
}

const publicBaseUrlProblem = (value: string) =>
  `PUBLIC_BASE_URL must be an absolute http or https URL without query, fragment or credentials, e.g. https://book.example.com; got "${value}"`;
const embedOriginProblem = (value: string) =>
  `PUBLIC_EMBED_ORIGINS must list origins (scheme, host and port only) separated by commas, e.g. https://shop.example.com,https://www.example.com; "${value}" is not one`;
const integerProblem = (name: string, min: number, max: number, value: string) =>
  `${name} must be a whole number from ${min} to ${max}, got "${value}"`;

describe('loadConfig defaults', () => {
  it('when no variable is set, then every setting has its default', () => {
    expect(loadConfig({})).toEqual(DEFAULTS);
  });

  it('when every variable is set to the empty string, then every setting has its default', () => {
    const env = Object.fromEntries(VARIABLES.map((name) => [name, '']));
    expect(loadConfig(env)).toEqual({ ...DEFAULTS, databaseUrl: '' });
  });

  it('when variables other than its own are set, then they are ignored', () => {
    expect(loadConfig({ SLOTWISE_PORT: '1', DATABASE: 'mysql://x', TIMEOUT_MS: 'x' })).toEqual(DEFAULTS);
  });

  it('when every variable is set to a valid value, then each setting takes it', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://slotwise:secret@db.internal:5432/slotwise',
      DATABASE_POOL_SIZE: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
      DATABASE_MAX_SIZE_MB: '512',
      PUBLIC_BASE_URL: 'https://book.example.com/slotwise/',
      PUBLIC_HOLDS_PER_HOLDER: '5',
      PUBLIC_HOLDS_PER_CLIENT: '3',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '30',
      PUBLIC_FILE_RATE_LIMIT_PER_MINUTE: '12',
      PUBLIC_EMBED_ORIGINS: 'https://shop.example.com, http://localhost:8080/',
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_PER_MINUTE: '120',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CALENDAR_ALLOW_PRIVATE_TARGETS: 'true',
      CALENDAR_SOURCES_PER_HOLDER: '3',
      CALENDAR_SYNC_INTERVAL_MS: '60000',
      CALENDAR_SYNC_TIMEOUT_MS: '5000',
      CALENDAR_HORIZON_DAYS: '120',
      CALENDAR_MAX_SIZE_MB: '2',
      CALENDAR_SYNC_CONCURRENCY: '2',
      CALENDAR_PARSE_QUEUE_MB: '16',
      HOLDERS_PER_ACCOUNT: '500',
      KEYS_PER_HOLDER: '5',
      SCHEDULES_PER_HOLDER: '7',
      TEAM_EVENT_TYPES_PER_ACCOUNT: '20',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_RETRY_SCHEDULE: '10s,1m,1h',
      WEBHOOK_POLL_INTERVAL_MS: '250',
      WEBHOOK_LIMIT_PER_HOLDER: '3',
      WEBHOOK_LIMIT_PER_ACCOUNT: '7',
      WEBHOOK_CONCURRENCY: '32',
      WEBHOOK_CONCURRENCY_PER_HOLDER: '8',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: '12',
      WEBHOOK_RETENTION_DAYS: '7',
      AUTH_FAILURE_RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: '10.0.0.0/8, loopback',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      HTTP_SOCKET_TIMEOUT_MS: '0',
      HTTP_MAX_CONNECTIONS: '4096',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '128',
      SLOTWISE_SECRET: `${KEY_B},${KEY_A}`,
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      EMAIL_FROM: 'Acme Bookings <book@acme.example>',
      EMAIL_PER_RECIPIENT_PER_HOUR: '3',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      database: { kind: 'postgres', url: 'postgres://slotwise:secret@db.internal:5432/slotwise' },
      databaseUrl: 'postgres://slotwise:secret@db.internal:5432/slotwise',
      postgres: { poolSize: 25, statementTimeoutMs: 2500 },
      sqlite: { maxSizeMb: 512 },
      publicBaseUrl: 'https://book.example.com/slotwise',
      pages: {
        holdsPerHolder: 5,
        holdsPerClient: 3,
        requestsPerMinute: 30,
        fileRequestsPerMinute: 12,
        embedOrigins: ['https://shop.example.com', 'http://localhost:8080'],
      },
      calendarSources: {
        ...CALENDAR_DEFAULTS,
        allowPrivateTargets: true,
        limitPerHolder: 3,
        syncIntervalMs: 60_000,
        timeoutMs: 5_000,
        horizonDays: 120,
        maxBytes: 2 * MB,
        syncConcurrency: 2,
        parseQueueBytes: 16 * MB,
      },
      accounts: { holdersPerAccount: 500, keysPerHolder: 5, schedulesPerHolder: 7, teamEventTypesPerAccount: 20 },
      email: {
        smtpUrl: 'smtps://mailer:secret@smtp.example.com:465',
        from: 'Acme Bookings <book@acme.example>',
        perRecipientPerHour: 3,
      },
      secretKeys: [KEY_B, KEY_A],
      logLevel: 'debug',
      rateLimitPerMinute: 120,
      authFailuresPerMinute: 0,
      trustProxy: '10.0.0.0/8,loopback',
      http: {
        headersTimeoutMs: 2000,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 65_000,
        socketTimeoutMs: 0,
        maxConnections: 4096,
        maxConnectionsPerAddress: 128,
      },
      webhooks: {
        allowPrivateTargets: true,
        timeoutMs: 5000,
        retryScheduleMs: [10_000, 60_000, HOUR],
        pollIntervalMs: 250,
        limitPerHolder: 3,
        limitPerAccount: 7,
        concurrency: 32,
        concurrencyPerHolder: 8,
        concurrencyPerAccount: 12,
        retentionDays: 7,
      },
    } satisfies Config);
  });

  it('when the log levels are listed, then they are pino’s, most to least severe, and silent', () => {
    expect(LOG_LEVELS).toEqual(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
  });
});

describe('loadConfig without an argument', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('when called without an env, then it reads process.env', () => {
    for (const name of VARIABLES) vi.stubEnv(name, '');
    vi.stubEnv('PORT', '4321');
    vi.stubEnv('LOG_LEVEL', 'warn');
    vi.stubEnv('DATABASE_URL', 'sqlite::memory:');
    const config = loadConfig();
    expect(config.port).toBe(4321);
    expect(config.logLevel).toBe('warn');
    expect(config.database).toEqual({ kind: 'sqlite', filename: ':memory:' });
    expect(config.host).toBe('127.0.0.1');
  });

  it('when process.env holds a bad value, then loadConfig() throws a ConfigError naming it', () => {
    for (const name of VARIABLES) vi.stubEnv(name, '');
    vi.stubEnv('WEBHOOK_TIMEOUT_MS', '50');
    expect(() => loadConfig()).toThrow(ConfigError);
    expect(() => loadConfig()).toThrow('WEBHOOK_TIMEOUT_MS must be a whole number from 100 to 300000, got "50"');
  });
});

/** Valid values: [case, env, the setting read back, expected]. */
const ACCEPTED: Array<[string, NodeJS.ProcessEnv, (config: Config) => unknown, unknown]> = [
  // DATABASE_URL
  [
    'DATABASE_URL is sqlite: with an absolute path',
    { DATABASE_URL: 'sqlite:/var/lib/slotwise/app.db' },
    (c) => c.database,
    { kind: 'sqlite', filename: '/var/lib/slotwise/app.db' },
  ],
  [
    'DATABASE_URL is sqlite:/// with an absolute path',
    { DATABASE_URL: 'sqlite:///var/lib/slotwise/app.db' },
    (c) => c.database,
    { kind: 'sqlite', filename: '/var/lib/slotwise/app.db' },
  ],
  [
    'DATABASE_URL is sqlite: with a relative path',
    { DATABASE_URL: 'sqlite:./data/dev.db' },
    (c) => c.database,
    { kind: 'sqlite', filename: join(process.cwd(), 'data', 'dev.db') },
  ],
  [
    'DATABASE_URL is sqlite: with a bare file name',
    { DATABASE_URL: 'sqlite:dev.db' },
    (c) => c.database,
    { kind: 'sqlite', filename: join(process.cwd(), 'dev.db') },
  ],
  [
    'DATABASE_URL is sqlite::memory:',
    { DATABASE_URL: 'sqlite::memory:' },
    (c) => c.database,
    { kind: 'sqlite', filename: ':memory:' },
  ],
  [
    'DATABASE_URL is postgres://',
    { DATABASE_URL: 'postgres://app:pw@localhost:5432/slotwise?sslmode=require', SLOTWISE_SECRET: KEY_A },
    (c) => c.database,
    { kind: 'postgres', url: 'postgres://app:pw@localhost:5432/slotwise?sslmode=require' },
  ],
  [
    'DATABASE_URL is postgresql://',
    { DATABASE_URL: 'postgresql://app@db/slotwise', SLOTWISE_SECRET: KEY_A },
    (c) => c.database,
    { kind: 'postgres', url: 'postgresql://app@db/slotwise' },
  ],
  ['DATABASE_URL is set', { DATABASE_URL: 'sqlite::memory:' }, (c) => c.databaseUrl, 'sqlite::memory:'],
  // DATABASE_POOL_SIZE: 1–1000
  ['DATABASE_POOL_SIZE is 1', { DATABASE_POOL_SIZE: '1' }, (c) => c.postgres.poolSize, 1],
  ['DATABASE_POOL_SIZE is 1000', { DATABASE_POOL_SIZE: '1000' }, (c) => c.postgres.poolSize, 1000],
  ['DATABASE_POOL_SIZE has spaces around it', { DATABASE_POOL_SIZE: ' 25 ' }, (c) => c.postgres.poolSize, 25],
  ['DATABASE_POOL_SIZE is only spaces', { DATABASE_POOL_SIZE: '   ' }, (c) => c.postgres.poolSize, 10],
  // DATABASE_STATEMENT_TIMEOUT_MS: 100–3600000
  [
    'DATABASE_STATEMENT_TIMEOUT_MS is 100',
    { DATABASE_STATEMENT_TIMEOUT_MS: '100' },
    (c) => c.postgres.statementTimeoutMs,
    100,
  ],
  [
    'DATABASE_STATEMENT_TIMEOUT_MS is 3600000',
    { DATABASE_STATEMENT_TIMEOUT_MS: '3600000' },
    (c) => c.postgres.statementTimeoutMs,
    3_600_000,
  ],
  // HOST: anything; trimmed; blank → 127.0.0.1
  ['HOST is 0.0.0.0', { HOST: '0.0.0.0' }, (c) => c.host, '0.0.0.0'],
  ['HOST is :: with spaces around it', { HOST: '  ::  ' }, (c) => c.host, '::'],
  ['HOST is a name', { HOST: 'localhost' }, (c) => c.host, 'localhost'],
  ['HOST is only spaces', { HOST: '   ' }, (c) => c.host, '127.0.0.1'],
  // PORT: 0–65535
  ['PORT is 0', { PORT: '0' }, (c) => c.port, 0],
  ['PORT is 65535', { PORT: '65535' }, (c) => c.port, 65535],
  ['PORT is 8080', { PORT: '8080' }, (c) => c.port, 8080],
  // LOG_LEVEL: one of LOG_LEVELS; trimmed
  ...(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const).map(
    (level): [string, NodeJS.ProcessEnv, (config: Config) => unknown, unknown] => [
      `LOG_LEVEL is ${level}`,
      { LOG_LEVEL: level },
      (c) => c.logLevel,
      level,
    ],
  ),
  ['LOG_LEVEL has spaces around it', { LOG_LEVEL: ' trace ' }, (c) => c.logLevel, 'trace'],
  ['LOG_LEVEL is only spaces', { LOG_LEVEL: '  ' }, (c) => c.logLevel, 'info'],
  // RATE_LIMIT_PER_MINUTE: 0 (off)–1000000
  ['RATE_LIMIT_PER_MINUTE is 0 (off)', { RATE_LIMIT_PER_MINUTE: '0' }, (c) => c.rateLimitPerMinute, 0],
  ['RATE_LIMIT_PER_MINUTE is 1', { RATE_LIMIT_PER_MINUTE: '1' }, (c) => c.rateLimitPerMinute, 1],
  ['RATE_LIMIT_PER_MINUTE is 1000000', { RATE_LIMIT_PER_MINUTE: '1000000' }, (c) => c.rateLimitPerMinute, 1_000_000],
  // WEBHOOK_ALLOW_PRIVATE_TARGETS: true/1/false/0, any case, trimmed
  ...(
    [
      ['true', true],
      ['TRUE', true],
      [' True ', true],
      ['1', true],
      ['false', false],
      ['FALSE', false],
      [' False ', false],
      ['0', false],
      ['   ', false],
    ] as const
  ).map(([value, expected]): [string, NodeJS.ProcessEnv, (config: Config) => unknown, unknown] => [
    `WEBHOOK_ALLOW_PRIVATE_TARGETS is "${value}"`,
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: value },
    (c) => c.webhooks.allowPrivateTargets,
    expected,
  ]),
  // WEBHOOK_TIMEOUT_MS: 100–300000
  ['WEBHOOK_TIMEOUT_MS is 100', { WEBHOOK_TIMEOUT_MS: '100' }, (c) => c.webhooks.timeoutMs, 100],
  ['WEBHOOK_TIMEOUT_MS is 300000', { WEBHOOK_TIMEOUT_MS: '300000' }, (c) => c.webhooks.timeoutMs, 300_000],
  ['WEBHOOK_TIMEOUT_MS is 30000', { WEBHOOK_TIMEOUT_MS: '30000' }, (c) => c.webhooks.timeoutMs, 30_000],
  // WEBHOOK_POLL_INTERVAL_MS: 10–60000
  ['WEBHOOK_POLL_INTERVAL_MS is 10', { WEBHOOK_POLL_INTERVAL_MS: '10' }, (c) => c.webhooks.pollIntervalMs, 10],
  [
    'WEBHOOK_POLL_INTERVAL_MS is 60000',
    { WEBHOOK_POLL_INTERVAL_MS: '60000' },
    (c) => c.webhooks.pollIntervalMs,
    60_000,
  ],
  // HOLDERS_PER_ACCOUNT: 1–1000000; KEYS_PER_HOLDER: 1–10000
  ['HOLDERS_PER_ACCOUNT is 1', { HOLDERS_PER_ACCOUNT: '1' }, (c) => c.accounts.holdersPerAccount, 1],
  [
    'HOLDERS_PER_ACCOUNT is 1000000',
    { HOLDERS_PER_ACCOUNT: '1000000' },
    (c) => c.accounts.holdersPerAccount,
    1_000_000,
  ],
  ['KEYS_PER_HOLDER is 1', { KEYS_PER_HOLDER: '1' }, (c) => c.accounts.keysPerHolder, 1],
  ['KEYS_PER_HOLDER is 10000', { KEYS_PER_HOLDER: '10000' }, (c) => c.accounts.keysPerHolder, 10_000],
  // SCHEDULES_PER_HOLDER: 1–1000
  ['SCHEDULES_PER_HOLDER is 1', { SCHEDULES_PER_HOLDER: '1' }, (c) => c.accounts.schedulesPerHolder, 1],
  ['SCHEDULES_PER_HOLDER is 1000', { SCHEDULES_PER_HOLDER: '1000' }, (c) => c.accounts.schedulesPerHolder, 1000],
  // TEAM_EVENT_TYPES_PER_ACCOUNT: 1–100000
  [
    'TEAM_EVENT_TYPES_PER_ACCOUNT is 1',
    { TEAM_EVENT_TYPES_PER_ACCOUNT: '1' },
    (c) => c.accounts.teamEventTypesPerAccount,
    1,
  ],
  [
    'TEAM_EVENT_TYPES_PER_ACCOUNT is 100000',
    { TEAM_EVENT_TYPES_PER_ACCOUNT: '100000' },
    (c) => c.accounts.teamEventTypesPerAccount,
    100_000,
  ],
  // WEBHOOK_LIMIT_PER_HOLDER: 1–1000
  ['WEBHOOK_LIMIT_PER_HOLDER is 1', { WEBHOOK_LIMIT_PER_HOLDER: '1' }, (c) => c.webhooks.limitPerHolder, 1],
  ['WEBHOOK_LIMIT_PER_HOLDER is 1000', { WEBHOOK_LIMIT_PER_HOLDER: '1000' }, (c) => c.webhooks.limitPerHolder, 1000],
  // WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY_PER_HOLDER: 1–4096, per holder ≤ in all
  ['WEBHOOK_CONCURRENCY is 4096', { WEBHOOK_CONCURRENCY: '4096' }, (c) => c.webhooks.concurrency, 4096],
  [
    'WEBHOOK_CONCURRENCY_PER_HOLDER equals WEBHOOK_CONCURRENCY',
    { WEBHOOK_CONCURRENCY: '16', WEBHOOK_CONCURRENCY_PER_HOLDER: '16' },
    (c) => c.webhooks.concurrencyPerHolder,
    16,
  ],
  // WEBHOOK_LIMIT_PER_ACCOUNT: 1–1000
  ['WEBHOOK_LIMIT_PER_ACCOUNT is 1', { WEBHOOK_LIMIT_PER_ACCOUNT: '1' }, (c) => c.webhooks.limitPerAccount, 1],
  ['WEBHOOK_LIMIT_PER_ACCOUNT is 1000', { WEBHOOK_LIMIT_PER_ACCOUNT: '1000' }, (c) => c.webhooks.limitPerAccount, 1000],
  // WEBHOOK_CONCURRENCY_PER_ACCOUNT: 1–4096, ≤ in all; by default 32, or all of a smaller WEBHOOK_CONCURRENCY
  [
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT equals WEBHOOK_CONCURRENCY',
    { WEBHOOK_CONCURRENCY: '64', WEBHOOK_CONCURRENCY_PER_ACCOUNT: '64' },
    (c) => c.webhooks.concurrencyPerAccount,
    64,
  ],
  [
    'WEBHOOK_CONCURRENCY is 16 and WEBHOOK_CONCURRENCY_PER_ACCOUNT is not set (a setting valid before accounts stays valid)',
    { WEBHOOK_CONCURRENCY: '16', WEBHOOK_CONCURRENCY_PER_HOLDER: '16' },
    (c) => c.webhooks.concurrencyPerAccount,
    16,
  ],
  // PUBLIC_BASE_URL: absolute http(s), trailing slashes dropped
  [
    'PUBLIC_BASE_URL is an origin',
    { PUBLIC_BASE_URL: 'http://localhost:3000' },
    (c) => c.publicBaseUrl,
    'http://localhost:3000',
  ],
  [
    'PUBLIC_BASE_URL ends in a slash',
    { PUBLIC_BASE_URL: 'https://book.example.com/' },
    (c) => c.publicBaseUrl,
    'https://book.example.com',
  ],
  // PUBLIC_EMBED_ORIGINS: origins, by commas or spaces, written as browsers write them, once each
  [
    'PUBLIC_EMBED_ORIGINS lists two origins with spaces',
    { PUBLIC_EMBED_ORIGINS: 'https://Shop.Example.com  https://www.example.com:8443' },
    (c) => c.pages.embedOrigins,
    ['https://shop.example.com', 'https://www.example.com:8443'],
  ],
  [
    'PUBLIC_EMBED_ORIGINS repeats an origin',
    { PUBLIC_EMBED_ORIGINS: 'https://a.example,https://a.example/' },
    (c) => c.pages.embedOrigins,
    ['https://a.example'],
  ],
  // TRUST_PROXY: false, true, hops, or addresses
  ['TRUST_PROXY is true', { TRUST_PROXY: 'true' }, (c) => c.trustProxy, true],
  ['TRUST_PROXY is FALSE', { TRUST_PROXY: 'FALSE' }, (c) => c.trustProxy, false],
  ['TRUST_PROXY is 2', { TRUST_PROXY: '2' }, (c) => c.trustProxy, 2],
  [
    'TRUST_PROXY is ::1,192.168.0.0/16',
    { TRUST_PROXY: '::1,192.168.0.0/16' },
    (c) => c.trustProxy,
    '::1,192.168.0.0/16',
  ],
  // AUTH_FAILURE_RATE_LIMIT_PER_MINUTE: 0–1000000
  [
    'AUTH_FAILURE_RATE_LIMIT_PER_MINUTE is 5',
    { AUTH_FAILURE_RATE_LIMIT_PER_MINUTE: '5' },
    (c) => c.authFailuresPerMinute,
    5,
  ],
  // HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS: 100–3600000, headers ≤ request
  ['HTTP_HEADERS_TIMEOUT_MS is 100', { HTTP_HEADERS_TIMEOUT_MS: '100' }, (c) => c.http.headersTimeoutMs, 100],
  [
    'HTTP_HEADERS_TIMEOUT_MS equals HTTP_REQUEST_TIMEOUT_MS',
    { HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '30000' },
    (c) => [c.http.headersTimeoutMs, c.http.requestTimeoutMs],
    [30_000, 30_000],
  ],
  [
    'HTTP_REQUEST_TIMEOUT_MS is 3600000',
    { HTTP_REQUEST_TIMEOUT_MS: '3600000' },
    (c) => c.http.requestTimeoutMs,
    3_600_000,
  ],
  // HTTP_KEEP_ALIVE_TIMEOUT_MS: 100–3600000
  ['HTTP_KEEP_ALIVE_TIMEOUT_MS is 100', { HTTP_KEEP_ALIVE_TIMEOUT_MS: '100' }, (c) => c.http.keepAliveTimeoutMs, 100],
  // HTTP_SOCKET_TIMEOUT_MS: 0 (off)–3600000
  ['HTTP_SOCKET_TIMEOUT_MS is 0 (off)', { HTTP_SOCKET_TIMEOUT_MS: '0' }, (c) => c.http.socketTimeoutMs, 0],
  // HTTP_MAX_CONNECTIONS: 1–1000000
  ['HTTP_MAX_CONNECTIONS is 1', { HTTP_MAX_CONNECTIONS: '1' }, (c) => c.http.maxConnections, 1],
  // HTTP_MAX_CONNECTIONS_PER_ADDRESS: 0 (off)–1000000; by default 64, or 0 with TRUST_PROXY
  [
    'HTTP_MAX_CONNECTIONS_PER_ADDRESS is 0 (off)',
    { HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' },
    (c) => c.http.maxConnectionsPerAddress,
    0,
  ],
  [
    'TRUST_PROXY is set and HTTP_MAX_CONNECTIONS_PER_ADDRESS is not (connections come from the proxy)',
    { TRUST_PROXY: 'loopback' },
    (c) => c.http.maxConnectionsPerAddress,
    0,
  ],
  [
    'TRUST_PROXY is false and HTTP_MAX_CONNECTIONS_PER_ADDRESS is not',
    { TRUST_PROXY: 'false' },
    (c) => c.http.maxConnectionsPerAddress,
    64,
  ],
  [
    'TRUST_PROXY and HTTP_MAX_CONNECTIONS_PER_ADDRESS are both set',
    { TRUST_PROXY: '1', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' },
    (c) => c.http.maxConnectionsPerAddress,
    500,
  ],
  // SLOTWISE_SECRET: one or more keys of 32+ characters, comma-separated, newest first
  ['SLOTWISE_SECRET is one key', { SLOTWISE_SECRET: KEY_A }, (c) => c.secretKeys, [KEY_A]],
  ['SLOTWISE_SECRET is exactly 32 characters', { SLOTWISE_SECRET: KEY_B }, (c) => c.secretKeys, [KEY_B]],
  [
    'SLOTWISE_SECRET is two keys with spaces around them',
    { SLOTWISE_SECRET: ` ${KEY_B} , ${KEY_A} ` },
    (c) => c.secretKeys,
    [KEY_B, KEY_A],
  ],
  [
    'SLOTWISE_SECRET is an openssl rand -base64 32 key (with + / =)',
    { SLOTWISE_SECRET: 'q3m+8Xo/2vI0Zc9tQe1yH7uWkLrN5sPaBdFgJ4hT6iM=' },
    (c) => c.secretKeys,
    ['q3m+8Xo/2vI0Zc9tQe1yH7uWkLrN5sPaBdFgJ4hT6iM='],
  ],
  [
    'SLOTWISE_SECRET is set with a PostgreSQL DATABASE_URL',
    { DATABASE_URL: 'postgres://app@db/slotwise', SLOTWISE_SECRET: KEY_A },
    (c) => c.secretKeys,
    [KEY_A],
  ],
  [
    'SLOTWISE_SECRET is unset on SQLite (the key file is used)',
    { DATABASE_URL: 'sqlite:./x.db' },
    (c) => c.secretKeys,
    [],
  ],
  ['SLOTWISE_SECRET is only spaces on SQLite', { SLOTWISE_SECRET: '   ' }, (c) => c.secretKeys, []],
  // WEBHOOK_RETRY_SCHEDULE: comma-separated durations
  [
    'WEBHOOK_RETRY_SCHEDULE is 5s,5m,30m,2h',
    { WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h' },
    (c) => c.webhooks.retryScheduleMs,
    [5_000, 300_000, 1_800_000, 2 * HOUR],
  ],
  [
    'WEBHOOK_RETRY_SCHEDULE has spaces around and between its items',
    { WEBHOOK_RETRY_SCHEDULE: '  10s , 1m ,1h  ' },
    (c) => c.webhooks.retryScheduleMs,
    [10_000, 60_000, HOUR],
  ],
  [
    'WEBHOOK_RETRY_SCHEDULE is one item in milliseconds',
    { WEBHOOK_RETRY_SCHEDULE: '250ms' },
    (c) => c.webhooks.retryScheduleMs,
    [250],
  ],
  [
    'WEBHOOK_RETRY_SCHEDULE uses days and weeks',
    { WEBHOOK_RETRY_SCHEDULE: '1d,2w' },
    (c) => c.webhooks.retryScheduleMs,
    [DAY, 14 * DAY],
  ],
  [
    'WEBHOOK_RETRY_SCHEDULE is only spaces',
    { WEBHOOK_RETRY_SCHEDULE: '   ' },
    (c) => c.webhooks.retryScheduleMs,
    DEFAULTS.webhooks.retryScheduleMs,
  ],
];

describe('loadConfig accepted values', () => {
  it.each(ACCEPTED)('when %s, then the setting is read from it', (_case, env, read, expected) => {
    expect(read(loadConfig(env))).toEqual(expected);
  });

  it('when WEBHOOK_RETRY_SCHEDULE is unset, then each load gets its own copy of the default schedule', () => {
    const first = loadConfig({});
    first.webhooks.retryScheduleMs.push(1);
    expect(loadConfig({}).webhooks.retryScheduleMs).toEqual(DEFAULTS.webhooks.retryScheduleMs);
  });
});

const SCHEDULE_PROBLEM = (value: string) =>
  `WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations like 5s,5m,30m,2h; got "${value}"`;
const LOG_LEVEL_PROBLEM = (value: string) =>
  `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${value}"`;
const BOOLEAN_PROBLEM = (value: string) => `WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${value}"`;
const UNKNOWN_SCHEME = (scheme: string) =>
  `DATABASE_URL must be postgres://…, sqlite:/path/file.db or sqlite::memory:; got ${scheme}:…`;

/** Rejected values: [variable, value, the one problem reported]. */
const REJECTED: Array<[string, string, string]> = [
  ['DATABASE_URL', 'sqlite:', 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/slotwise.db'],
  ['DATABASE_URL', 'mysql://root:secret@db/slotwise', UNKNOWN_SCHEME('mysql')],
  ['DATABASE_URL', 'file:/tmp/slotwise.db', UNKNOWN_SCHEME('file')],
  ['DATABASE_URL', 'postgres:/db/slotwise', UNKNOWN_SCHEME('postgres')],
  ['DATABASE_POOL_SIZE', '0', integerProblem('DATABASE_POOL_SIZE', 1, 1000, '0')],
  ['DATABASE_POOL_SIZE', '1001', integerProblem('DATABASE_POOL_SIZE', 1, 1000, '1001')],
  ['DATABASE_POOL_SIZE', '-5', integerProblem('DATABASE_POOL_SIZE', 1, 1000, '-5')],
  ['DATABASE_POOL_SIZE', '2.5', integerProblem('DATABASE_POOL_SIZE', 1, 1000, '2.5')],
  ['DATABASE_POOL_SIZE', '1e2', integerProblem('DATABASE_POOL_SIZE', 1, 1000, '1e2')],
  ['DATABASE_POOL_SIZE', 'ten', integerProblem('DATABASE_POOL_SIZE', 1, 1000, 'ten')],
  ['DATABASE_STATEMENT_TIMEOUT_MS', '99', integerProblem('DATABASE_STATEMENT_TIMEOUT_MS', 100, 3_600_000, '99')],
  [
    'DATABASE_STATEMENT_TIMEOUT_MS',
    '3600001',
    integerProblem('DATABASE_STATEMENT_TIMEOUT_MS', 100, 3_600_000, '3600001'),
  ],
  ['DATABASE_STATEMENT_TIMEOUT_MS', '10s', integerProblem('DATABASE_STATEMENT_TIMEOUT_MS', 100, 3_600_000, '10s')],
  ['PORT', '65536', integerProblem('PORT', 0, 65535, '65536')],
  ['PORT', '-1', integerProblem('PORT', 0, 65535, '-1')],
  ['PORT', '80.5', integerProblem('PORT', 0, 65535, '80.5')],
  ['PORT', '0x50', integerProblem('PORT', 0, 65535, '0x50')],
  ['PORT', 'http', integerProblem('PORT', 0, 65535, 'http')],
  ['LOG_LEVEL', 'verbose', LOG_LEVEL_PROBLEM('verbose')],
  ['LOG_LEVEL', 'warning', LOG_LEVEL_PROBLEM('warning')],
  ['RATE_LIMIT_PER_MINUTE', '-1', integerProblem('RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '-1')],
  ['RATE_LIMIT_PER_MINUTE', '1000001', integerProblem('RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '1000001')],
  ['RATE_LIMIT_PER_MINUTE', 'off', integerProblem('RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 'off')],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes', BOOLEAN_PROBLEM('yes')],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'no', BOOLEAN_PROBLEM('no')],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'on', BOOLEAN_PROBLEM('on')],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', '2', BOOLEAN_PROBLEM('2')],
  ['WEBHOOK_TIMEOUT_MS', '99', integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '99')],
  ['WEBHOOK_TIMEOUT_MS', '300001', integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '300001')],
  ['WEBHOOK_TIMEOUT_MS', '0', integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '0')],
  ['WEBHOOK_TIMEOUT_MS', '15s', integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '15s')],
  ['WEBHOOK_POLL_INTERVAL_MS', '9', integerProblem('WEBHOOK_POLL_INTERVAL_MS', 10, 60_000, '9')],
  ['WEBHOOK_POLL_INTERVAL_MS', '60001', integerProblem('WEBHOOK_POLL_INTERVAL_MS', 10, 60_000, '60001')],
  ['WEBHOOK_POLL_INTERVAL_MS', 'fast', integerProblem('WEBHOOK_POLL_INTERVAL_MS', 10, 60_000, 'fast')],
  ['WEBHOOK_LIMIT_PER_HOLDER', '0', integerProblem('WEBHOOK_LIMIT_PER_HOLDER', 1, 1000, '0')],
  ['HOLDERS_PER_ACCOUNT', '0', integerProblem('HOLDERS_PER_ACCOUNT', 1, 1_000_000, '0')],
  ['HOLDERS_PER_ACCOUNT', '1000001', integerProblem('HOLDERS_PER_ACCOUNT', 1, 1_000_000, '1000001')],
  ['KEYS_PER_HOLDER', '0', integerProblem('KEYS_PER_HOLDER', 1, 10_000, '0')],
  ['KEYS_PER_HOLDER', 'many', integerProblem('KEYS_PER_HOLDER', 1, 10_000, 'many')],
  ['SCHEDULES_PER_HOLDER', '0', integerProblem('SCHEDULES_PER_HOLDER', 1, 1000, '0')],
  ['SCHEDULES_PER_HOLDER', '1001', integerProblem('SCHEDULES_PER_HOLDER', 1, 1000, '1001')],
  ['TEAM_EVENT_TYPES_PER_ACCOUNT', '0', integerProblem('TEAM_EVENT_TYPES_PER_ACCOUNT', 1, 100_000, '0')],
  ['TEAM_EVENT_TYPES_PER_ACCOUNT', '100001', integerProblem('TEAM_EVENT_TYPES_PER_ACCOUNT', 1, 100_000, '100001')],
  ['WEBHOOK_RETENTION_DAYS', '0', integerProblem('WEBHOOK_RETENTION_DAYS', 1, 3650, '0')],
  ['WEBHOOK_RETENTION_DAYS', '3651', integerProblem('WEBHOOK_RETENTION_DAYS', 1, 3650, '3651')],
  [
    'AUTH_FAILURE_RATE_LIMIT_PER_MINUTE',
    '-1',
    integerProblem('AUTH_FAILURE_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '-1'),
  ],
  [
    'TRUST_PROXY',
    'my proxy',
    'TRUST_PROXY must be true, false, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; got "my proxy"',
  ],
  ['WEBHOOK_LIMIT_PER_HOLDER', '1001', integerProblem('WEBHOOK_LIMIT_PER_HOLDER', 1, 1000, '1001')],
  ['WEBHOOK_CONCURRENCY', '0', integerProblem('WEBHOOK_CONCURRENCY', 1, 4096, '0')],
  ['WEBHOOK_CONCURRENCY_PER_HOLDER', 'all', integerProblem('WEBHOOK_CONCURRENCY_PER_HOLDER', 1, 4096, 'all')],
  [
    'WEBHOOK_CONCURRENCY_PER_HOLDER',
    '129',
    'WEBHOOK_CONCURRENCY_PER_HOLDER (129) must not exceed WEBHOOK_CONCURRENCY (128)',
  ],
  ['WEBHOOK_LIMIT_PER_ACCOUNT', '0', integerProblem('WEBHOOK_LIMIT_PER_ACCOUNT', 1, 1000, '0')],
  ['WEBHOOK_LIMIT_PER_ACCOUNT', '1001', integerProblem('WEBHOOK_LIMIT_PER_ACCOUNT', 1, 1000, '1001')],
  ['WEBHOOK_CONCURRENCY_PER_ACCOUNT', '0', integerProblem('WEBHOOK_CONCURRENCY_PER_ACCOUNT', 1, 4096, '0')],
  [
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
    '129',
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT (129) must not exceed WEBHOOK_CONCURRENCY (128)',
  ],
  ['PUBLIC_BASE_URL', 'ftp://book.example.com', publicBaseUrlProblem('ftp://book.example.com')],
  ['PUBLIC_BASE_URL', 'https://book.example.com/?embed=1', publicBaseUrlProblem('https://book.example.com/?embed=1')],
  ['PUBLIC_BASE_URL', 'https://user:pw@book.example.com', publicBaseUrlProblem('https://user:pw@book.example.com')],
  ['PUBLIC_EMBED_ORIGINS', 'https://shop.example.com/embed', embedOriginProblem('https://shop.example.com/embed')],
  ['PUBLIC_EMBED_ORIGINS', '*', embedOriginProblem('*')],
  ['PUBLIC_EMBED_ORIGINS', 'https://*.example.com', embedOriginProblem('https://*.example.com')],
  ['PUBLIC_EMBED_ORIGINS', 'https://a.example;script-src', embedOriginProblem('https://a.example;script-src')],
  ['PUBLIC_EMBED_ORIGINS', 'javascript://a.example', embedOriginProblem('javascript://a.example')],
  ['HTTP_HEADERS_TIMEOUT_MS', '99', integerProblem('HTTP_HEADERS_TIMEOUT_MS', 100, 3_600_000, '99')],
  ['HTTP_HEADERS_TIMEOUT_MS', '10s', integerProblem('HTTP_HEADERS_TIMEOUT_MS', 100, 3_600_000, '10s')],
  [
    'HTTP_HEADERS_TIMEOUT_MS',
    '30001',
    'HTTP_HEADERS_TIMEOUT_MS (30001) must not exceed HTTP_REQUEST_TIMEOUT_MS (30000): the request timeout includes the headers',
  ],
  ['HTTP_REQUEST_TIMEOUT_MS', '0', integerProblem('HTTP_REQUEST_TIMEOUT_MS', 100, 3_600_000, '0')],
  [
    'HTTP_REQUEST_TIMEOUT_MS',
    '9999',
    'HTTP_HEADERS_TIMEOUT_MS (10000) must not exceed HTTP_REQUEST_TIMEOUT_MS (9999): the request timeout includes the headers',
  ],
  ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0', integerProblem('HTTP_KEEP_ALIVE_TIMEOUT_MS', 100, 3_600_000, '0')],
  ['HTTP_SOCKET_TIMEOUT_MS', '3600001', integerProblem('HTTP_SOCKET_TIMEOUT_MS', 0, 3_600_000, '3600001')],
  ['HTTP_MAX_CONNECTIONS', '0', integerProblem('HTTP_MAX_CONNECTIONS', 1, 1_000_000, '0')],
  ['HTTP_MAX_CONNECTIONS', 'unlimited', integerProblem('HTTP_MAX_CONNECTIONS', 1, 1_000_000, 'unlimited')],
  ['HTTP_MAX_CONNECTIONS_PER_ADDRESS', '-1', integerProblem('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 0, 1_000_000, '-1')],
  ['WEBHOOK_RETRY_SCHEDULE', '5s,soon,5m', SCHEDULE_PROBLEM('5s,soon,5m')],
  ['WEBHOOK_RETRY_SCHEDULE', '5s,,5m', SCHEDULE_PROBLEM('5s,,5m')],
  ['WEBHOOK_RETRY_SCHEDULE', '5s,5m,', SCHEDULE_PROBLEM('5s,5m,')],
  ['WEBHOOK_RETRY_SCHEDULE', '0s,5m', SCHEDULE_PROBLEM('0s,5m')],
  ['WEBHOOK_RETRY_SCHEDULE', '5000', SCHEDULE_PROBLEM('5000')],
  ['WEBHOOK_RETRY_SCHEDULE', '1.5h', SCHEDULE_PROBLEM('1.5h')],
  ['WEBHOOK_RETRY_SCHEDULE', '5 s', SCHEDULE_PROBLEM('5 s')],
  ['WEBHOOK_RETRY_SCHEDULE', '-5m', SCHEDULE_PROBLEM('-5m')],
  ['WEBHOOK_RETRY_SCHEDULE', '5s;5m', SCHEDULE_PROBLEM('5s;5m')],
  // The message quotes the trimmed schedule.
  ['WEBHOOK_RETRY_SCHEDULE', ' 5s,5y ', SCHEDULE_PROBLEM('5s,5y')],
  // SLOTWISE_SECRET: the problem says which key and its length, never the key.
  ['SLOTWISE_SECRET', 'x'.repeat(31), shortKey('SLOTWISE_SECRET', 31)],
  ['SLOTWISE_SECRET', 'hunter2', shortKey('SLOTWISE_SECRET', 7)],
  ['SLOTWISE_SECRET', `${KEY_A},short-old-key`, shortKey('SLOTWISE_SECRET key 2 of 2', 13)],
  ['SLOTWISE_SECRET', `${KEY_A},`, 'SLOTWISE_SECRET key 2 of 2 is empty: separate keys with single commas'],
  ['SLOTWISE_SECRET', `${KEY_A},,${KEY_B}`, 'SLOTWISE_SECRET key 2 of 3 is empty: separate keys with single commas'],
  ['SLOTWISE_SECRET', `${KEY_A}, ${KEY_A}`, 'SLOTWISE_SECRET key 2 of 2 repeats key 1'],
];

describe('loadConfig rejected values', () => {
  it.each(REJECTED)('when %s is "%s", then a ConfigError reports exactly that problem', (name, value, problem) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toEqual([problem]);
    expect(problems[0]).toContain(name);
  });

  it('when DATABASE_URL has an unknown scheme, then the problem does not echo its credentials', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/slotwise' });
    expect(problem).toBe(UNKNOWN_SCHEME('mysql'));
    expect(problem).not.toContain('hunter2');
  });

  it('when DATABASE_URL is PostgreSQL and SLOTWISE_SECRET is unset or blank, then the ConfigError says it is required', () => {
    for (const secret of [undefined, '', '  ']) {
      const env = { DATABASE_URL: 'postgres://app@db/slotwise', SLOTWISE_SECRET: secret };
      expect(problemsOf(env)).toEqual([PG_SECRET_MISSING]);
    }
  });

  it('when SLOTWISE_SECRET holds a short key among good ones, then no problem echoes any of the keys', () => {
    const problems = problemsOf({ SLOTWISE_SECRET: `${KEY_A},my-old-password,${KEY_B}` });
    expect(problems).toEqual([shortKey('SLOTWISE_SECRET key 2 of 3', 15)]);
    for (const key of [KEY_A, 'my-old-password', KEY_B]) expect(problems.join('\n')).not.toContain(key);
  });

  it('when a value is rejected, then the ConfigError is an Error whose message lists the problem', () => {
    let thrown: unknown;
    try {
      loadConfig({ PORT: '70000' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).name).toBe('ConfigError');
    expect((thrown as ConfigError).message).toBe(
      'Invalid configuration:\n  - PORT must be a whole number from 0 to 65535, got "70000"',
    );
  });

  it('when several values are bad, then one ConfigError reports each of them, naming its variable', () => {
    const env: NodeJS.ProcessEnv = {
      HOST: '0.0.0.0', // fine: not reported
      PORT: '99999',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'redis://cache',
      DATABASE_POOL_SIZE: '0',
      DATABASE_STATEMENT_TIMEOUT_MS: '5',
      DATABASE_MAX_SIZE_MB: '1TB',
      PUBLIC_BASE_URL: 'book.example.com',
      PUBLIC_HOLDS_PER_HOLDER: '0',
      PUBLIC_HOLDS_PER_CLIENT: 'two',
      PUBLIC_RATE_LIMIT_PER_MINUTE: 'many',
      PUBLIC_FILE_RATE_LIMIT_PER_MINUTE: '-1',
      PUBLIC_EMBED_ORIGINS: 'shop.example.com',
      RATE_LIMIT_PER_MINUTE: 'many',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe',
      CALENDAR_ALLOW_PRIVATE_TARGETS: 'sometimes',
      CALENDAR_SOURCES_PER_HOLDER: '0',
      CALENDAR_SYNC_INTERVAL_MS: '999',
      CALENDAR_SYNC_TIMEOUT_MS: 'long',
      CALENDAR_HORIZON_DAYS: '6',
      CALENDAR_MAX_SIZE_MB: '201',
      CALENDAR_SYNC_CONCURRENCY: '0',
      CALENDAR_PARSE_QUEUE_MB: 'big',
      WEBHOOK_TIMEOUT_MS: '1',
      WEBHOOK_RETRY_SCHEDULE: '5s,later',
      WEBHOOK_POLL_INTERVAL_MS: '0',
      WEBHOOK_LIMIT_PER_HOLDER: 'lots',
      WEBHOOK_LIMIT_PER_ACCOUNT: 'lots',
      WEBHOOK_RETENTION_DAYS: 'forever',
      WEBHOOK_CONCURRENCY: '-1',
      WEBHOOK_CONCURRENCY_PER_HOLDER: '0',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: 'all',
      AUTH_FAILURE_RATE_LIMIT_PER_MINUTE: 'x',
      TRUST_PROXY: 'proxy.internal',
      HTTP_HEADERS_TIMEOUT_MS: 'slow',
      HTTP_REQUEST_TIMEOUT_MS: '1',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5s',
      HTTP_SOCKET_TIMEOUT_MS: '-1',
      HTTP_MAX_CONNECTIONS: '0',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: 'x',
      HOLDERS_PER_ACCOUNT: '-5',
      KEYS_PER_HOLDER: '10001',
      SCHEDULES_PER_HOLDER: 'fifty',
      TEAM_EVENT_TYPES_PER_ACCOUNT: 'all',
      SLOTWISE_SECRET: 'too-short',
      SMTP_URL: 'http://mail.example',
      EMAIL_FROM: 'nobody',
      EMAIL_PER_RECIPIENT_PER_HOUR: '0',
    };
    const expected = [
      integerProblem('PORT', 0, 65535, '99999'),
      LOG_LEVEL_PROBLEM('loud'),
      UNKNOWN_SCHEME('redis'),
      integerProblem('DATABASE_POOL_SIZE', 1, 1000, '0'),
      integerProblem('DATABASE_STATEMENT_TIMEOUT_MS', 100, 3_600_000, '5'),
      integerProblem('DATABASE_MAX_SIZE_MB', 0, 1_048_576, '1TB'),
      publicBaseUrlProblem('book.example.com'),
      integerProblem('PUBLIC_HOLDS_PER_HOLDER', 1, 10000, '0'),
      integerProblem('PUBLIC_HOLDS_PER_CLIENT', 1, 10000, 'two'),
      integerProblem('PUBLIC_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 'many'),
      integerProblem('PUBLIC_FILE_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '-1'),
      embedOriginProblem('shop.example.com'),
      integerProblem('RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 'many'),
      BOOLEAN_PROBLEM('maybe'),
      'CALENDAR_ALLOW_PRIVATE_TARGETS must be true or false, got "sometimes"',
      integerProblem('CALENDAR_SOURCES_PER_HOLDER', 1, 100, '0'),
      integerProblem('CALENDAR_SYNC_INTERVAL_MS', 1000, 86_400_000, '999'),
      integerProblem('CALENDAR_SYNC_TIMEOUT_MS', 100, 300_000, 'long'),
      integerProblem('CALENDAR_HORIZON_DAYS', 7, 1100, '6'),
      integerProblem('CALENDAR_MAX_SIZE_MB', 1, 200, '201'),
      integerProblem('CALENDAR_SYNC_CONCURRENCY', 1, 256, '0'),
      integerProblem('CALENDAR_PARSE_QUEUE_MB', 1, 4096, 'big'),
      integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '1'),
      SCHEDULE_PROBLEM('5s,later'),
      integerProblem('WEBHOOK_POLL_INTERVAL_MS', 10, 60_000, '0'),
      integerProblem('WEBHOOK_LIMIT_PER_HOLDER', 1, 1000, 'lots'),
      integerProblem('WEBHOOK_LIMIT_PER_ACCOUNT', 1, 1000, 'lots'),
      integerProblem('WEBHOOK_RETENTION_DAYS', 1, 3650, 'forever'),
      integerProblem('WEBHOOK_CONCURRENCY', 1, 4096, '-1'),
      integerProblem('WEBHOOK_CONCURRENCY_PER_HOLDER', 1, 4096, '0'),
      integerProblem('WEBHOOK_CONCURRENCY_PER_ACCOUNT', 1, 4096, 'all'),
      integerProblem('AUTH_FAILURE_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 'x'),
      'TRUST_PROXY must be true, false, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; got "proxy.internal"',
      integerProblem('HTTP_HEADERS_TIMEOUT_MS', 100, 3_600_000, 'slow'),
      integerProblem('HTTP_REQUEST_TIMEOUT_MS', 100, 3_600_000, '1'),
      integerProblem('HTTP_KEEP_ALIVE_TIMEOUT_MS', 100, 3_600_000, '5s'),
      integerProblem('HTTP_SOCKET_TIMEOUT_MS', 0, 3_600_000, '-1'),
      integerProblem('HTTP_MAX_CONNECTIONS', 1, 1_000_000, '0'),
      integerProblem('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 0, 1_000_000, 'x'),
      integerProblem('HOLDERS_PER_ACCOUNT', 1, 1_000_000, '-5'),
      integerProblem('KEYS_PER_HOLDER', 1, 10_000, '10001'),
      integerProblem('SCHEDULES_PER_HOLDER', 1, 1000, 'fifty'),
      integerProblem('TEAM_EVENT_TYPES_PER_ACCOUNT', 1, 100_000, 'all'),
      shortKey('SLOTWISE_SECRET', 9),
      'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; got http:…',
      'EMAIL_FROM must be one e-mail address with an optional name, e.g. Acme <book@acme.example>; got "nobody"',
      integerProblem('EMAIL_PER_RECIPIENT_PER_HOUR', 1, 100_000, '0'),
    ];
    const problems = problemsOf(env);
    expect(problems).toHaveLength(expected.length);
    expect(problems).toEqual(expect.arrayContaining(expected));
    let message = '';
    try {
      loadConfig(env);
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of VARIABLES.filter((v) => v !== 'HOST')) expect(message).toContain(`  - ${name} `);
    expect(message.split('\n')).toHaveLength(1 + expected.length);
  });

  it('when the room for calendars waiting to be parsed is smaller than the largest calendar, then it is refused', () => {
    expect(problemsOf({ CALENDAR_MAX_SIZE_MB: '20', CALENDAR_PARSE_QUEUE_MB: '16' })).toEqual([
      'CALENDAR_PARSE_QUEUE_MB (16) must not be less than CALENDAR_MAX_SIZE_MB (20): a calendar of the largest size must fit',
    ]);
    expect(loadConfig({ CALENDAR_MAX_SIZE_MB: '20', CALENDAR_PARSE_QUEUE_MB: '20' }).calendarSources).toMatchObject({
      maxBytes: 20 * MB,
      parseQueueBytes: 20 * MB,
    });
  });

  it('when only some values are bad, then only those are reported', () => {
    const problems = problemsOf({
      PORT: '8080',
      LOG_LEVEL: 'debug',
      WEBHOOK_TIMEOUT_MS: '99',
      DATABASE_URL: 'sqlite:',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        integerProblem('WEBHOOK_TIMEOUT_MS', 100, 300_000, '99'),
        'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/slotwise.db',
      ]),
    );
    expect(problems).toHaveLength(2);
  });
});

describe('loadConfig e-mail settings (contract §16)', () => {
  const SMTP = { SMTP_URL: 'smtp://127.0.0.1:2525', EMAIL_FROM: 'book@acme.example' };

  it('when SMTP_URL and EMAIL_FROM are set, then e-mail is on with 10 messages per address an hour', () => {
    expect(loadConfig(SMTP).email).toEqual({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'book@acme.example',
      perRecipientPerHour: 10,
    });
  });

  it.each([
    [
      'SMTP_URL without EMAIL_FROM',
      { SMTP_URL: 'smtp://127.0.0.1' },
      'EMAIL_FROM is required with SMTP_URL: the sender of every e-mail, e.g. Acme <book@acme.example>',
    ],
    [
      'EMAIL_FROM without SMTP_URL',
      { EMAIL_FROM: 'book@acme.example' },
      'EMAIL_FROM is set but SMTP_URL is not: set SMTP_URL to send e-mail, or unset both',
    ],
    [
      'SMTP_URL of another scheme',
      { ...SMTP, SMTP_URL: 'http://user:hunter2@mail.example' },
      'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; got http:…',
    ],
    [
      'SMTP_URL that is no URL',
      { ...SMTP, SMTP_URL: 'mail.example:25' },
      'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; got mail.example:…',
    ],
    [
      'SMTP_URL that is not parseable',
      { ...SMTP, SMTP_URL: 'hunter2' },
      'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port; it is not a URL',
    ],
    [
      'EMAIL_FROM without a domain',
      { ...SMTP, EMAIL_FROM: 'Acme <book>' },
      'EMAIL_FROM must be one e-mail address with an optional name, e.g. Acme <book@acme.example>; got "Acme <book>"',
    ],
    [
      'EMAIL_FROM with two addresses',
      { ...SMTP, EMAIL_FROM: 'a@acme.example, b@acme.example' },
      'EMAIL_FROM must be one e-mail address with an optional name, e.g. Acme <book@acme.example>; got "a@acme.example, b@acme.example"',
    ],
    [
      'EMAIL_FROM with a line break',
      { ...SMTP, EMAIL_FROM: 'book@acme.example\r\nBcc: x@evil.example' },
      'EMAIL_FROM must be one e-mail address with an optional name, e.g. Acme <book@acme.example>; got "book@acme.example Bcc: x@evil.example"',
    ],
    [
      'EMAIL_PER_RECIPIENT_PER_HOUR of 0',
      { ...SMTP, EMAIL_PER_RECIPIENT_PER_HOUR: '0' },
      integerProblem('EMAIL_PER_RECIPIENT_PER_HOUR', 1, 100_000, '0'),
    ],
    [
      'EMAIL_PER_RECIPIENT_PER_HOUR that is no number',
      { EMAIL_PER_RECIPIENT_PER_HOUR: 'lots' },
      integerProblem('EMAIL_PER_RECIPIENT_PER_HOUR', 1, 100_000, 'lots'),
    ],
  ])('when %s, then start-up is refused naming the variable', (_case, env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it('when SMTP_URL is refused, then the problem never echoes its password', () => {
    const [problem] = problemsOf({ ...SMTP, SMTP_URL: 'ftp://mailer:hunter2@mail.example' });
    expect(problem).not.toContain('hunter2');
  });

  it('when a name precedes the address, then EMAIL_FROM is taken as written', () => {
    expect(loadConfig({ ...SMTP, EMAIL_FROM: '"Acme, Inc." <book@acme.example>' }).email?.from).toBe(
      '"Acme, Inc." <book@acme.example>',
    );
  });
});

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['1ms', 1],
    ['5s', 5_000],
    ['1m', 60_000],
    ['30m', 30 * 60_000],
    ['12h', 12 * HOUR],
    ['1d', DAY],
    ['90d', 90 * DAY],
    ['1w', 7 * DAY],
    ['2w', 14 * DAY],
  ])('when the text is %s, then it is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['empty', ''],
    ['a bare number', '30'],
    ['a bare unit', 'm'],
    ['zero minutes', '0m'],
    ['zero milliseconds', '0ms'],
    ['a fraction', '1.5h'],
    ['negative', '-5m'],
    ['signed', '+5m'],
    ['a space before the unit', '30 m'],
    ['leading space', ' 30m'],
    ['trailing space', '30m '],
    ['an upper-case unit', '30M'],
    ['an unknown unit', '2y'],
    ['a long unit name', '30min'],
    ['two units', '1h30m'],
    ['an ISO 8601 duration', 'PT30M'],
  ])('when the text is %s (%j), then it is rejected', (_case, text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
