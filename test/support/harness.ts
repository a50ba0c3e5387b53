import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/app/api-keys.js';
import type { AppContext, CalendarSourceSettings } from '../../src/app/context.js';
import type { Store } from '../../src/app/ports/store.js';
import type { Scope } from '../../src/domain/api-key.js';
import { busyFromCalendars } from '../../src/domain/busy-time.js';
import { DateFormats } from '../../src/domain/date-formats.js';
import { DEFAULT_ACCOUNT_SETTINGS, DEFAULT_CALENDAR_SOURCE_SETTINGS, DEFAULT_HTTP_LIMITS } from '../../src/config.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../src/domain/webhook-retry.js';
import type { ConnectionLimits } from '../../src/http/connection-limits.js';
import { composeServer, type Server, type ServerSettings } from '../../src/server.js';
import type { Storage } from '../../src/storage/storage.js';
import { composeAndSend } from '../../src/worker/email-delivery.js';
import { EmailSender } from '../../src/worker/send-email.js';
import { openTestStore, type TestStore } from './databases.js';
import type { ChangePollTiming } from '../../src/storage/postgres-change-poll.js';
import { testKeyring } from './secrets.js';

/** A settable clock: tests move time instead of waiting for it. */
export class TestClock {
  constructor(public current: number) {}
  now = (): number => this.current;
  set(iso: string | number): void {
    this.current = typeof iso === 'number' ? iso : Date.parse(iso);
  }
}

export interface Harness {
  app: FastifyInstance;
  /** The whole wiring, as `slotwise serve` builds it (the worker is not started). */
  server: Server;
  storage: Storage;
  store: Store;
  /** Rows of a table as stored, and the URL a spawned server would use for the same data. */
  database: Pick<TestStore, 'rows' | 'databaseUrl'>;
  clock: TestClock;
  context: AppContext;
  dir: string;
  /** The settings the server was composed with: for a second server over the same storage. */
  settings: ServerSettings;
  /** Creates a key for `holder` (the holder too, on first use) and returns the bearer token. */
  key(holder: string, scopes?: Scope[]): Promise<string>;
  /** `app.inject` with the bearer token and JSON body filled in. */
  request(options: InjectOptions & { token?: string; json?: unknown }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The real wiring (src/server.ts) on an empty real store: a SQLite file in a fresh temporary
 * directory, or PostgreSQL (see databases.ts); no rate limit, no logging, a settable clock, the
 * tests' fixed secret (support/secrets.ts); the default connection limits unless `http` changes some.
 */
export async function createHarness(
  options: {
    now?: string;
    allowPrivateWebhookTargets?: boolean;
    webhookLimitPerHolder?: number;
    webhookLimitPerAccount?: number;
    /** `HOLDERS_PER_ACCOUNT`, `KEYS_PER_HOLDER`, `SCHEDULES_PER_HOLDER` and `TEAM_EVENT_TYPES_PER_ACCOUNT`; the defaults unless given. */
    holdersPerAccount?: number;
    keysPerHolder?: number;
    schedulesPerHolder?: number;
    teamEventTypesPerAccount?: number;
    pageHoldsPerHolder?: number;
    pageHoldsPerClient?: number;
    pageRequestsPerMinute?: number;
    /** Requests per calendar-file link per minute (`PUBLIC_FILE_RATE_LIMIT_PER_MINUTE`); off by default. */
    fileRequestsPerMinute?: number;
    embedOrigins?: string[];
    /** `PUBLIC_BASE_URL`; by default the links start with the server's own address. */
    publicBaseUrl?: string;
    /** Calendar sources' settings over the defaults; private targets are allowed unless said otherwise (the tests' calendar servers are on 127.0.0.1). */
    calendarSources?: Partial<CalendarSourceSettings>;
    http?: Partial<ConnectionLimits>;
    /** PostgreSQL's change poll timing (the production defaults unless given). */
    changePoll?: ChangePollTiming;
    /** E-mail (contract §16): `SMTP_URL`, `EMAIL_FROM`, `EMAIL_PER_RECIPIENT_PER_HOUR`; none by default. */
    email?: ServerSettings['email'];
    /** The webhooks' (and e-mails') retry schedule; the default unless given. */
    retryScheduleMs?: number[];
  } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-test-'));
  const testStore = await openTestStore(dir, options.changePoll);
  const clock = new TestClock(Date.parse(options.now ?? '2026-01-01T00:00:00Z'));
  const settings: ServerSettings = {
    now: clock.now,
    keyring: testKeyring(),
    rateLimitPerMinute: 0,
    http: { ...DEFAULT_HTTP_LIMITS, ...options.http },
    pages: { holdsPerHolder: options.pageHoldsPerHolder ?? 20, holdsPerClient: options.pageHoldsPerClient ?? 2 },
    pageRequestsPerMinute: options.pageRequestsPerMinute ?? 0,
    fileRequestsPerMinute: options.fileRequestsPerMinute ?? 0,
    embedOrigins: options.embedOrigins ?? [],
    accounts: {
      holdersPerAccount: options.holdersPerAccount ?? DEFAULT_ACCOUNT_SETTINGS.holdersPerAccount,
      keysPerHolder: options.keysPerHolder ?? DEFAULT_ACCOUNT_SETTINGS.keysPerHolder,
      schedulesPerHolder: options.schedulesPerHolder ?? DEFAULT_ACCOUNT_SETTINGS.schedulesPerHolder,
      teamEventTypesPerAccount: options.teamEventTypesPerAccount ?? DEFAULT_ACCOUNT_SETTINGS.teamEventTypesPerAccount,
    },
    ...(options.publicBaseUrl ? { publicBaseUrl: options.publicBaseUrl } : {}),
    ...(options.email ? { email: options.email } : {}),
    // The engine in place: a worker thread runs the built JavaScript, and these tests run the sources.
    busyParser: { parse: async (_owner, ...args) => busyFromCalendars(...args) },
    // A test's process may be busy with anything: its e-mails never wait for it.
    emailMaxGiveWayMs: 0,
    // Likewise composed and sent in place, over real SMTP.
    emailDelivery: (data) => {
      const sender = new EmailSender(data.sender);
      const formats = new DateFormats(data.maxDateFormats);
      return {
        deliver: (input) => composeAndSend(sender, formats, input),
        close: async () => sender.close(),
      };
    },
    calendarSources: {
      ...DEFAULT_CALENDAR_SOURCE_SETTINGS,
      allowPrivateTargets: true,
      timeoutMs: 5_000,
      ...options.calendarSources,
    },
    webhooks: {
      allowPrivateTargets: options.allowPrivateWebhookTargets ?? false,
      timeoutMs: 15_000,
      retryScheduleMs: options.retryScheduleMs ?? [...DEFAULT_RETRY_SCHEDULE_MS],
      pollIntervalMs: 1_000,
      limitPerHolder: options.webhookLimitPerHolder ?? 25,
      limitPerAccount: options.webhookLimitPerAccount ?? 25,
      concurrency: 128,
      concurrencyPerHolder: 16,
      concurrencyPerAccount: 32,
      retentionDays: 30,
    },
  };
  const server = await composeServer(testStore.storage, settings);
  const { app, context } = server;
  return {
    app,
    server,
    storage: testStore.storage,
    store: testStore.store,
    database: testStore,
    clock,
    context,
    dir,
    settings,
    async key(holder, scopes = ['read', 'write']) {
      const { token } = await createApiKey(context, {
        accountName: holder,
        holderName: holder,
        scopes,
        expiresAt: null,
      });
      return token;
    },
    request({ token, json, headers, ...rest }) {
      return app.inject({
        ...rest,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(json !== undefined ? { payload: JSON.stringify(json) } : {}),
      });
    },
    async close() {
      await server.close();
      await testStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
