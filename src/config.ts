import type { AccountSettings, CalendarSourceSettings } from './app/context.js';
import {
  DEFAULT_HTTP_LIMITS,
  readConnectionLimits,
  readEmbedOrigins,
  readPublicBaseUrl,
  readTrustProxy,
} from './config-http.js';
import { readEmail, type EmailConfig } from './config-email.js';
import { parseDuration, readBoolean, readInteger } from './config-values.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from './domain/webhook-retry.js';
import type { ConnectionLimits } from './http/connection-limits.js';
import { parseSecretKeys } from './secrets/keyring.js';
import {
  parseDatabaseUrl,
  type DatabaseTarget,
  type PostgresSettings,
  type SqliteSettings,
} from './storage/open-storage.js';

export { DEFAULT_HTTP_LIMITS, parseDuration };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  database: DatabaseTarget;
  databaseUrl: string | undefined;
  postgres: PostgresSettings;
  sqlite: SqliteSettings;
  /**
   * SLOTWISE_SECRET's keys, newest first; empty when unset (SQLite only: then the data folder's key
   * file). Never logged.
   */
  secretKeys: string[];
  logLevel: LogLevel;
  /** Requests per API key per minute; 0 = off. */
  rateLimitPerMinute: number;
  /** Requests that fail authentication, per client address per minute; 0 = off. */
  authFailuresPerMinute: number;
  /** Which proxies' `X-Forwarded-For` to believe for the client address (Fastify's `trustProxy`). */
  trustProxy: boolean | number | string;
  /** How long a connection may take and how many may be open (docs/api.md, "Limits"). */
  http: ConnectionLimits;
  /**
   * `PUBLIC_BASE_URL` without a trailing slash: what the links to booking pages, manage pages and
   * calendar files start with (contract §10). Undefined: the address the server listens on.
   */
  publicBaseUrl: string | undefined;
  pages: {
    /** Live holds made on one holder's booking pages at once. */
    holdsPerHolder: number;
    /** Of those, the most one client (an address, or an IPv6 /64) holds at once. */
    holdsPerClient: number;
    /** Requests to the public pages per client address per minute; 0 = off. */
    requestsPerMinute: number;
    /** Requests per calendar-file link (a booking's `.ics`, a holder's feed) per minute; 0 = off. */
    fileRequestsPerMinute: number;
    /**
     * `PUBLIC_EMBED_ORIGINS`: the sites that may show the booking pages in a frame (their
     * `frame-ancestors`) and hear from an embedded page when a booking is made. None by default.
     */
    embedOrigins: string[];
  };
  /** Calendar sources (contract §11). */
  calendarSources: CalendarSourceSettings;
  /** Holders per account and keys per holder (contract §12). */
  accounts: AccountSettings;
  /** E-mail (contract §16): undefined when `SMTP_URL` is unset, and then no e-mail is sent. */
  email: EmailConfig | undefined;
  webhooks: {
    allowPrivateTargets: boolean;
    timeoutMs: number;
    retryScheduleMs: number[];
    pollIntervalMs: number;
    /** Webhooks one holder may register. */
    limitPerHolder: number;
    /** Account webhooks one account may register (its holders' count per holder). */
    limitPerAccount: number;
    /** Attempts the worker has in flight at once, over every holder. */
    concurrency: number;
    /** Attempts in flight at once for one holder's webhooks: a tenant's hanging receivers cost only that tenant. */
    concurrencyPerHolder: number;
    /** Attempts in flight at once for one account's webhooks, its own and its holders': one account's share. */
    concurrencyPerAccount: number;
    /** Days finished deliveries (with their attempts and events) are kept. */
    retentionDays: number;
  };
}

/** What `CALENDAR_*` default to (below); the bounds of one source are fixed (docs/api.md, "Calendar sources"). */
export const DEFAULT_CALENDAR_SOURCE_SETTINGS: CalendarSourceSettings = {
  allowPrivateTargets: false,
  limitPerHolder: 10,
  syncIntervalMs: 300_000,
  horizonDays: 366,
  timeoutMs: 15_000,
  maxBytes: 10 * 1024 * 1024,
  syncConcurrency: 4,
  parseQueueBytes: 32 * 1024 * 1024,
  maxEvents: 20_000,
  maxIntervals: 50_000,
  maxRecurrenceSteps: 100_000,
};

/** What `HOLDERS_PER_ACCOUNT`, `KEYS_PER_HOLDER`, `SCHEDULES_PER_HOLDER` and `TEAM_EVENT_TYPES_PER_ACCOUNT` default to. */
export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = {
  holdersPerAccount: 10_000,
  keysPerHolder: 50,
  schedulesPerHolder: 50,
  teamEventTypesPerAccount: 1_000,
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `slotwise mcp`'s settings: a client of a Slotwise service, so none of a server's. */
export interface McpClientConfig {
  /** Where the service answers, without a trailing slash. */
  url: string;
  apiKey: string;
  /** The holder an account key acts for when a tool call names none. */
  holderId: string | undefined;
}

/** `slotwise mcp`'s settings from the environment, all problems reported at once. */
export function loadMcpClientConfig(env: NodeJS.ProcessEnv = process.env): McpClientConfig {
  const problems: string[] = [];
  const url = env.SLOTWISE_URL?.trim().replace(/\/+$/, '') ?? '';
  if (url === '') problems.push('SLOTWISE_URL must say where the service answers, e.g. https://slotwise.example.com');
  else if (!/^https?:\/\/[^/]/.test(url)) problems.push(`SLOTWISE_URL must be an http(s) URL, got "${url}"`);
  const apiKey = env.SLOTWISE_API_KEY?.trim() ?? '';
  if (apiKey === '') problems.push('SLOTWISE_API_KEY must be an API key (npx slotwise keys create)');
  if (problems.length > 0) throw new ConfigError(problems);
  return { url, apiKey, holderId: env.SLOTWISE_HOLDER?.trim() || undefined };
}

/** The one reader of the environment; every setting is checked at start, all problems reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const host = env.HOST?.trim() || '127.0.0.1';

  let port = 3000;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!/^\d+$/.test(env.PORT) || port > 65535)
      problems.push(`PORT must be a whole number from 0 to 65535, got "${env.PORT}"`);
  }

  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);

  let database: DatabaseTarget = { kind: 'sqlite', filename: '' };
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (error) {
    problems.push((error as Error).message);
  }

  const poolSize = readInteger(env, 'DATABASE_POOL_SIZE', 10, { min: 1, max: 1000 }, problems);
  const statementTimeoutMs = readInteger(
    env,
    'DATABASE_STATEMENT_TIMEOUT_MS',
    10_000,
    { min: 100, max: 3_600_000 },
    problems,
  );
  const maxSizeMb = readInteger(env, 'DATABASE_MAX_SIZE_MB', 0, { min: 0, max: 1_048_576 }, problems);
  const secretKeys = readSecretKeys(env, database, problems);
  const rateLimitPerMinute = readInteger(env, 'RATE_LIMIT_PER_MINUTE', 600, { min: 0, max: 1_000_000 }, problems);
  const authFailuresPerMinute = readInteger(
    env,
    'AUTH_FAILURE_RATE_LIMIT_PER_MINUTE',
    60,
    { min: 0, max: 1_000_000 },
    problems,
  );
  const trustProxy = readTrustProxy(env, problems);
  const publicBaseUrl = readPublicBaseUrl(env, problems);
  const holdsPerHolder = readInteger(env, 'PUBLIC_HOLDS_PER_HOLDER', 20, { min: 1, max: 10_000 }, problems);
  const holdsPerClient = readInteger(env, 'PUBLIC_HOLDS_PER_CLIENT', 2, { min: 1, max: 10_000 }, problems);
  const pageRequestsPerMinute = readInteger(
    env,
    'PUBLIC_RATE_LIMIT_PER_MINUTE',
    60,
    { min: 0, max: 1_000_000 },
    problems,
  );
  const fileRequestsPerMinute = readInteger(
    env,
    'PUBLIC_FILE_RATE_LIMIT_PER_MINUTE',
    30,
    { min: 0, max: 1_000_000 },
    problems,
  );
  const embedOrigins = readEmbedOrigins(env, problems);
  const http = readConnectionLimits(env, trustProxy, problems);
  const allowPrivateTargets = readBoolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false, problems);
  const calendarSources: CalendarSourceSettings = {
    ...DEFAULT_CALENDAR_SOURCE_SETTINGS,
    allowPrivateTargets: readBoolean(env, 'CALENDAR_ALLOW_PRIVATE_TARGETS', false, problems),
    limitPerHolder: readInteger(env, 'CALENDAR_SOURCES_PER_HOLDER', 10, { min: 1, max: 100 }, problems),
    syncIntervalMs: readInteger(env, 'CALENDAR_SYNC_INTERVAL_MS', 300_000, { min: 1_000, max: 86_400_000 }, problems),
    timeoutMs: readInteger(env, 'CALENDAR_SYNC_TIMEOUT_MS', 15_000, { min: 100, max: 300_000 }, problems),
    horizonDays: readInteger(env, 'CALENDAR_HORIZON_DAYS', 366, { min: 7, max: 1_100 }, problems),
    maxBytes: readInteger(env, 'CALENDAR_MAX_SIZE_MB', 10, { min: 1, max: 200 }, problems) * 1024 * 1024,
    syncConcurrency: readInteger(env, 'CALENDAR_SYNC_CONCURRENCY', 4, { min: 1, max: 256 }, problems),
    parseQueueBytes: readInteger(env, 'CALENDAR_PARSE_QUEUE_MB', 32, { min: 1, max: 4_096 }, problems) * 1024 * 1024,
  };
  if (calendarSources.parseQueueBytes < calendarSources.maxBytes) {
    problems.push(
      `CALENDAR_PARSE_QUEUE_MB (${calendarSources.parseQueueBytes / 1_048_576}) must not be less than CALENDAR_MAX_SIZE_MB (${calendarSources.maxBytes / 1_048_576}): a calendar of the largest size must fit`,
    );
  }
  const accounts: AccountSettings = {
    holdersPerAccount: readInteger(
      env,
      'HOLDERS_PER_ACCOUNT',
      DEFAULT_ACCOUNT_SETTINGS.holdersPerAccount,
      { min: 1, max: 1_000_000 },
      problems,
    ),
    keysPerHolder: readInteger(
      env,
      'KEYS_PER_HOLDER',
      DEFAULT_ACCOUNT_SETTINGS.keysPerHolder,
      { min: 1, max: 10_000 },
      problems,
    ),
    teamEventTypesPerAccount: readInteger(
      env,
      'TEAM_EVENT_TYPES_PER_ACCOUNT',
      DEFAULT_ACCOUNT_SETTINGS.teamEventTypesPerAccount,
      { min: 1, max: 100_000 },
      problems,
    ),
    schedulesPerHolder: readInteger(
      env,
      'SCHEDULES_PER_HOLDER',
      DEFAULT_ACCOUNT_SETTINGS.schedulesPerHolder,
      { min: 1, max: 1_000 },
      problems,
    ),
  };
  const email = readEmail(env, problems);
  const timeoutMs = readInteger(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 300_000 }, problems);
  const pollIntervalMs = readInteger(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, { min: 10, max: 60_000 }, problems);
  const limitPerHolder = readInteger(env, 'WEBHOOK_LIMIT_PER_HOLDER', 25, { min: 1, max: 1_000 }, problems);
  const limitPerAccount = readInteger(env, 'WEBHOOK_LIMIT_PER_ACCOUNT', 25, { min: 1, max: 1_000 }, problems);
  const retentionDays = readInteger(env, 'WEBHOOK_RETENTION_DAYS', 30, { min: 1, max: 3_650 }, problems);
  const concurrency = readInteger(env, 'WEBHOOK_CONCURRENCY', 128, { min: 1, max: 4_096 }, problems);
  const concurrencyPerHolder = readInteger(env, 'WEBHOOK_CONCURRENCY_PER_HOLDER', 16, { min: 1, max: 4_096 }, problems);
  // By default 32, or all of a smaller WEBHOOK_CONCURRENCY: a setting that was valid stays valid.
  const concurrencyPerAccount = readInteger(
    env,
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
    Math.min(32, concurrency),
    { min: 1, max: 4_096 },
    problems,
  );
  for (const [name, share] of Object.entries({ HOLDER: concurrencyPerHolder, ACCOUNT: concurrencyPerAccount }))
    if (share > concurrency)
      problems.push(`WEBHOOK_CONCURRENCY_PER_${name} (${share}) must not exceed WEBHOOK_CONCURRENCY (${concurrency})`);
  let retryScheduleMs = [...DEFAULT_RETRY_SCHEDULE_MS];
  const schedule = env.WEBHOOK_RETRY_SCHEDULE?.trim();
  if (schedule) {
    const parsed = schedule.split(',').map((part) => parseDuration(part.trim()));
    if (parsed.some((ms) => ms === undefined)) {
      problems.push(
        `WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations like 5s,5m,30m,2h; got "${schedule}"`,
      );
    } else {
      retryScheduleMs = parsed as number[];
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    host,
    port,
    database,
    databaseUrl: env.DATABASE_URL,
    postgres: { poolSize, statementTimeoutMs },
    sqlite: { maxSizeMb },
    secretKeys,
    logLevel,
    rateLimitPerMinute,
    authFailuresPerMinute,
    trustProxy,
    http,
    publicBaseUrl,
    pages: {
      holdsPerHolder,
      holdsPerClient,
      requestsPerMinute: pageRequestsPerMinute,
      fileRequestsPerMinute,
      embedOrigins,
    },
    calendarSources,
    accounts,
    email,
    webhooks: {
      allowPrivateTargets,
      timeoutMs,
      retryScheduleMs,
      pollIntervalMs,
      limitPerHolder,
      limitPerAccount,
      concurrency,
      concurrencyPerHolder,
      concurrencyPerAccount,
      retentionDays,
    },
  };
}

/**
 * `SLOTWISE_SECRET` (contract §8): one or more keys of at least 32 characters, comma-separated,
 * newest first. Required on PostgreSQL, where every instance must share it; on SQLite, when unset,
 * `serve` keeps a key file in the data folder. Problems say which key is wrong and how, never the key.
 */
function readSecretKeys(env: NodeJS.ProcessEnv, database: DatabaseTarget, problems: string[]): string[] {
  const value = env.SLOTWISE_SECRET?.trim();
  if (value === undefined || value === '') {
    if (database.kind === 'postgres')
      problems.push(
        'SLOTWISE_SECRET is required with a PostgreSQL DATABASE_URL, the same on every instance: one or more keys of at least 32 characters, comma-separated, newest first (make one with `openssl rand -base64 32`)',
      );
    return [];
  }
  const parsed = parseSecretKeys(value, 'SLOTWISE_SECRET');
  problems.push(...parsed.problems);
  return parsed.problems.length > 0 ? [] : parsed.keys;
}
