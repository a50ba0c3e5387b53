// The composition root: the one place that builds the process's parts and hands each what it
// uses. Every cache and worker of a process is made here, so what a request can see is visible
// in one file. `serve` (via the CLI) runs it on the configured database; tests and the benchmark
// call `composeServer` on a store of their own and can reset its caches between cases.
import type { FastifyInstance } from 'fastify';
import { dirname } from 'node:path';
import { pino } from 'pino';
import { HolderCache, KeyCache, TeamEventTypeCache } from './app/key-cache.js';
import { TeamSlotCache } from './app/team-slot-cache.js';
import { CalendarCache } from './app/calendars.js';
import { BookingBatches } from './app/booking-batches.js';
import type { AccountSettings, AppContext, CalendarSourceSettings, PageSettings } from './app/context.js';
import type { BusyParser } from './app/ports/busy-parser.js';
import { payloadAsSent } from './app/outbox.js';
import { GuestLinks } from './app/guest-links.js';
import { syncLeaseMs } from './app/calendar-sync.js';
import { SyncLimits } from './app/sync-limits.js';
import { IdGenerator } from './app/ids.js';
import type { Keyring } from './app/ports/keyring.js';
import type { RequestCounter } from './app/ports/request-counter.js';
import { DEFAULT_ACCOUNT_SETTINGS, DEFAULT_CALENDAR_SOURCE_SETTINGS, type Config, type LogLevel } from './config.js';
import { fromDomain, type EmailConfig } from './config-email.js';
import { DAY_MS, type Instant } from './domain/instant.js';
import { Zones } from './domain/zone.js';
import { PerMinuteLimit } from './http/per-minute-limit.js';
import { RenderedFeeds } from './http/rendered-feeds.js';
import { buildApp } from './http/build-app.js';
import { Metrics } from './http/metrics.js';
import { MemoryRequestCounter } from './http/rate-limit.js';
import { LeasedRequestCounter } from './app/leased-request-counter.js';
import { RenderedTracks } from './http/rendered-tracks.js';
import { SlotWriter } from './http/slots-body.js';
import { readOrCreateKeyFile } from './secrets/key-file.js';
import { DerivedKeyring, newSecretKey } from './secrets/keyring.js';
import type { Storage } from './storage/storage.js';
import { HttpCalendarFetcher } from './worker/calendar-fetcher.js';
import { CalendarSyncWorker } from './worker/calendar-sync-worker.js';
import { ThreadBusyParser } from './worker/thread-busy-parser.js';
import { DeliveryWorker } from './worker/delivery-worker.js';
import { EmailWorker } from './worker/email-worker.js';
import { EventLoopLoad, GiveWay } from './worker/event-loop-load.js';
import { openedAddress } from './app/calendar-sources.js';
import { calendarWriteSettings, CalendarWriteWorker } from './worker/calendar-write-worker.js';
import type { EmailDelivery } from './worker/email-delivery.js';
import type { EmailThreadData } from './worker/email-thread-main.js';
import { ThreadEmailDelivery } from './worker/thread-email-delivery.js';
import { Housekeeper } from './worker/housekeeper.js';
import { ReminderWorker } from './worker/reminder-worker.js';
import { queueReminderEmail, writeQueuedEmails } from './app/booking-emails.js';
import { hostOccurrence, hostOccurrenceEmail } from './app/occurrence-notices.js';
import { WebhookSender } from './worker/send-webhook.js';
import { ClockFormats } from './http/pages/clocks.js';

const DEFAULT_PAGE_SETTINGS: PageSettings = { holdsPerHolder: 20, holdsPerClient: 2 };
/** Clocks the booking pages keep: every zone a guest can pick, in each of the pages' two languages. */
const MAX_PAGE_CLOCKS = 1_024;

/** Written calendar feeds kept for all holders: a feed at its cap of 5,000 bookings is ~2.5 MB. */
const RENDERED_FEEDS_BYTES = 32 * 1024 * 1024;
/** Written slot tracks kept for all holders: a worst-case track (18,000 slots in UTC) is ~1.2 MB written. */
const RENDERED_TRACKS_BYTES = 64 * 1024 * 1024;
/** How long shutdown waits for requests, then for webhook attempts, in flight. */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * Bookings of one start decided in one transaction at the most (`BookingBatches`): the holder's
 * other decisions wait for the batch's commit, so a batch stays a few milliseconds long.
 */
const BOOKINGS_PER_BATCH = 64;
/** How long the SMTP server may take to accept a connection, greet, or answer one command. */
const SMTP_TIMEOUT_MS = 20_000;
/** E-mails in flight at once: one connection each, modest for any SMTP relay. */
const EMAIL_CONCURRENCY = 8;
/**
 * Booking changes whose e-mails one claim writes, at most: under a booking load a claim every
 * 50 ms finds some tens; more are written by the next claim, at once.
 */
const EMAIL_CHANGES_PER_CLAIM = 200;
/** The share of its time the event loop runs code from which it counts as saturated (`EventLoopLoad`). */
const SATURATED_EVENT_LOOP = 0.9;
/**
 * How long the e-mail worker gives way to a saturated event loop at most (`GiveWay`): a burst of
 * bookings is answered at the speed it would be without e-mail; under a saturation that lasts,
 * e-mails are this much late at most and then take their share of the CPU.
 */
const EMAIL_MAX_GIVE_WAY_MS = 30_000;
/** The e-mails' day and time formats kept, by style, language and zone: a recipient's zone each. */
const MAX_EMAIL_DATE_FORMATS = 1_000;

export interface ServerSettings {
  webhooks: Config['webhooks'];
  /** Calendar sources (contract §11): limits, sync interval, horizon; the defaults when absent. */
  calendarSources?: CalendarSourceSettings;
  /** Holders per account, keys and schedules per holder, team event types per account (`HOLDERS_PER_ACCOUNT`, `KEYS_PER_HOLDER`, `SCHEDULES_PER_HOLDER`, `TEAM_EVENT_TYPES_PER_ACCOUNT`); the defaults when absent. */
  accounts?: AccountSettings;
  /**
   * Reads calendars into busy time: by default in a worker thread, which runs the built
   * JavaScript; tests that run the TypeScript sources pass one that parses in place.
   */
  busyParser?: BusyParser;
  /**
   * Composes and sends the e-mails: by default in a worker thread, which runs the built
   * JavaScript; tests that run the TypeScript sources pass one that works in place.
   */
  emailDelivery?: (data: EmailThreadData) => EmailDelivery;
  /** How long the e-mail worker gives way to a saturated event loop at most (`EMAIL_MAX_GIVE_WAY_MS` when absent). */
  emailMaxGiveWayMs?: number;
  /** The server's secrets (SLOTWISE_SECRET or the SQLite key file): what encrypts secret-bearing idempotency replays. */
  keyring: Keyring;
  /** Requests per API key per minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Requests failing authentication per client address per minute; 0 or absent turns the limit off. */
  authFailuresPerMinute?: number;
  /** Requests to the public pages per client address per minute; 0 or absent turns the limit off. */
  pageRequestsPerMinute?: number;
  /** Requests per calendar-file link (`.ics`, feed) per minute; 0 or absent turns the limit off. */
  fileRequestsPerMinute?: number;
  /** `PUBLIC_EMBED_ORIGINS`: the sites that may frame the booking pages; none when absent. */
  embedOrigins?: readonly string[];
  /** Whose `X-Forwarded-For` to believe for the client address (Fastify's `trustProxy`). */
  trustProxy?: Config['trustProxy'];
  /** Timeouts and connection caps of the HTTP server (`DEFAULT_HTTP_LIMITS` unless configured). */
  http: Config['http'];
  /**
   * Where requests are counted for the limit. By default in the database on PostgreSQL, a lease of
   * counts at a time (so every instance shares each key's count), and in memory on SQLite (one
   * process).
   */
  requestCounter?: RequestCounter;
  /** The process's log: its level and where its lines go; no logging when absent. */
  log?: { level: LogLevel; destination: { write(line: string): unknown } };
  /** The clock; tests pass a settable one. */
  now?: () => Instant;
  /** Limits of the booking pages (`PUBLIC_HOLDS_PER_HOLDER`, `PUBLIC_HOLDS_PER_CLIENT`); the defaults when absent. */
  pages?: PageSettings;
  /** `PUBLIC_BASE_URL` (no trailing slash): what links to pages and files start with. By default the address the server listens on. */
  publicBaseUrl?: string;
  /** `SMTP_URL`, `EMAIL_FROM`, `EMAIL_PER_RECIPIENT_PER_HOUR` (contract §16); absent: no e-mail is written or sent. */
  email?: EmailConfig & {
    /** The SMTP server's bound for each step of a conversation; `SMTP_TIMEOUT_MS` unless given (tests). */
    timeoutMs?: number;
  };
}

export interface Server {
  context: AppContext;
  app: FastifyInstance;
  worker: DeliveryWorker;
  /** Sends the e-mails; undefined without SMTP. */
  emailWorker: EmailWorker | undefined;
  /** Writes bookings to their hosts' own calendars (contract §16). */
  calendarWriter: CalendarWriteWorker;
  calendarSync: CalendarSyncWorker;
  housekeeper: Housekeeper;
  /** Sends due reminders (contract §16) into the outbox. */
  reminders: ReminderWorker;
  metrics: Metrics;
  /** Empties every cache of the process: for tests that change the database behind its back. */
  resetCaches(): void;
  /** Stops the worker and the app (after their work in flight, at most `graceMs` each); the storage is the caller's to close. */
  close(graceMs?: number): Promise<void>;
}

/** Builds every part of a server process over `storage`, without listening or starting the worker. */
export async function composeServer(storage: Storage, settings: ServerSettings): Promise<Server> {
  const now = settings.now ?? Date.now;
  const zones = new Zones();
  const calendars = new CalendarCache(storage.store, zones);
  const keys = new KeyCache(storage.store.apiKeys, storage.changes);
  const holders = new HolderCache(storage.store.holders, storage.changes);
  const teamEventTypes = new TeamEventTypeCache(storage.store.teamEventTypes, storage.changes);
  const teamSlots = new TeamSlotCache();
  const writer = new SlotWriter();
  const renderedTracks = new RenderedTracks(writer, RENDERED_TRACKS_BYTES);
  const renderedFeeds = new RenderedFeeds(RENDERED_FEEDS_BYTES);
  const metrics = new Metrics({
    queueDepth: () => storage.deliveryQueue.countPending(),
    emailQueueDepth: () => storage.notificationQueue.countPending('email'),
    databaseQueries: () => storage.queriesSent(),
    hearingChanges: () => storage.changes.mark() !== null,
    slotTracks: () => calendars.trackComputations(),
  });
  const sender = new WebhookSender({
    timeoutMs: settings.webhooks.timeoutMs,
    allowPrivateTargets: settings.webhooks.allowPrivateTargets,
  });
  const sources = settings.calendarSources ?? DEFAULT_CALENDAR_SOURCE_SETTINGS;
  const fetcher = new HttpCalendarFetcher({
    timeoutMs: sources.timeoutMs,
    maxBytes: sources.maxBytes,
    allowPrivateTargets: sources.allowPrivateTargets,
  });
  // Made here only when the settings bring none (tests that run the sources parse in place).
  let threadParser: ThreadBusyParser | undefined;
  const busyParser =
    settings.busyParser ??
    (threadParser = new ThreadBusyParser({ timeoutMs: sources.timeoutMs, maxHeapMb: 256, idleMs: 5_000 }));
  const context: AppContext = {
    store: storage.store,
    now,
    ids: new IdGenerator(),
    zones,
    calendars,
    keys,
    holders,
    bookingBatches: new BookingBatches(BOOKINGS_PER_BATCH),
    teamEventTypes,
    teamSlots,
    // The app exists by the time a link is made.
    links: new GuestLinks(
      settings.keyring,
      () => settings.publicBaseUrl ?? (listeningAt ??= listeningUrl(app)) ?? 'http://localhost',
      settings.publicBaseUrl?.startsWith('https:') ?? false,
    ),
    pages: settings.pages ?? DEFAULT_PAGE_SETTINGS,
    accounts: settings.accounts ?? DEFAULT_ACCOUNT_SETTINGS,
    webhooks: {
      allowPrivateTargets: settings.webhooks.allowPrivateTargets,
      limitPerHolder: settings.webhooks.limitPerHolder,
      limitPerAccount: settings.webhooks.limitPerAccount,
    },
    secrets: settings.keyring,
    calendarSources: sources,
    calendarFetcher: fetcher,
    busyParser,
    syncLimits: new SyncLimits(sources, now),
    // Called after commits, by which time the workers below exist.
    outboxChanged: () => worker.wake(),
    ...(settings.email && {
      email: { from: settings.email.from, perRecipientPerHour: settings.email.perRecipientPerHour },
      emailsQueued: () => emailWorker?.wake(),
    }),
    sourcesChanged: () => calendarSync.wake(),
    calendarWritesQueued: () => calendarWriter.wake(),
  };
  /** The listening address, read once (a system call): it does not change while the server runs. */
  let listeningAt: string | undefined;
  const logger = settings.log && pino({ level: settings.log.level }, settings.log.destination);
  const counter =
    settings.requestCounter ??
    (storage.engine === 'postgres'
      ? new LeasedRequestCounter(storage.requestCounts, settings.rateLimitPerMinute)
      : new MemoryRequestCounter());
  const app = await buildApp(context, {
    logger,
    metrics,
    idempotencyLedger: storage.idempotencyLedger,
    keyring: settings.keyring,
    schemaStatus: storage.schemaStatus,
    slots: { writer, renderedTracks },
    rateLimit: settings.rateLimitPerMinute > 0 ? { perMinute: settings.rateLimitPerMinute, counter } : undefined,
    authFailures: settings.authFailuresPerMinute
      ? new PerMinuteLimit(settings.authFailuresPerMinute, now, 'share')
      : undefined,
    pageRequests: settings.pageRequestsPerMinute
      ? new PerMinuteLimit(settings.pageRequestsPerMinute, now, 'share')
      : undefined,
    fileRequests: settings.fileRequestsPerMinute
      ? new PerMinuteLimit(settings.fileRequestsPerMinute, now, 'skip')
      : undefined,
    renderedFeeds,
    embedOrigins: settings.embedOrigins ?? [],
    pageClocks: new ClockFormats(MAX_PAGE_CLOCKS),
    trustProxy: settings.trustProxy,
    connections: settings.http,
  });
  const worker = new DeliveryWorker(
    storage.deliveryQueue,
    sender,
    {
      retryScheduleMs: settings.webhooks.retryScheduleMs,
      pollIntervalMs: settings.webhooks.pollIntervalMs,
      // A claim outlives the longest attempt, so no other worker sends it while it is in flight.
      leaseMs: settings.webhooks.timeoutMs + 5_000,
      concurrency: settings.webhooks.concurrency,
      perHolder: settings.webhooks.concurrencyPerHolder,
      perAccount: settings.webhooks.concurrencyPerAccount,
      // Fixed: four at once keeps the load on one receiver modest and its events close to their order.
      perWebhook: 4,
      asSent: (payload) => payloadAsSent(payload, context.links),
      observe: (outcome) => metrics.observeDelivery(outcome),
    },
    now,
    app.log,
  );
  const emailTimeoutMs = settings.email?.timeoutMs ?? SMTP_TIMEOUT_MS;
  const eventLoopLoad = new EventLoopLoad(SATURATED_EVENT_LOOP);
  const emailThread: EmailThreadData | undefined = settings.email && {
    sender: { smtpUrl: settings.email.smtpUrl, timeoutMs: emailTimeoutMs, maxConnections: EMAIL_CONCURRENCY },
    maxDateFormats: MAX_EMAIL_DATE_FORMATS,
  };
  const emailDelivery =
    emailThread && (settings.emailDelivery ?? ((data) => new ThreadEmailDelivery(data)))(emailThread);
  const emailWorker =
    settings.email &&
    new EmailWorker(
      storage.notificationQueue,
      emailDelivery!,
      // What the notification log still holds: finished rows go after the retention (the housekeeper).
      (notice, recipient) =>
        hostOccurrenceEmail(context.store, notice, recipient, context.now() - settings.webhooks.retentionDays * DAY_MS),
      async () =>
        (await writeQueuedEmails(context, {
          limit: EMAIL_CHANGES_PER_CLAIM,
          failed: (error, ownerId) =>
            app.log.error({ err: error, owner: ownerId }, "e-mail worker: could not write a booking change's e-mails"),
        })) >= EMAIL_CHANGES_PER_CLAIM,
      {
        retryScheduleMs: settings.webhooks.retryScheduleMs,
        pollIntervalMs: settings.webhooks.pollIntervalMs,
        // A conversation is a handful of steps, each within the timeout: the claim outlives them all.
        leaseMs: 10 * emailTimeoutMs,
        concurrency: EMAIL_CONCURRENCY,
        // E-mails may wait a moment: under a booking load one claim serves the commits of 50 ms.
        wakeDelayMs: 50,
        from: settings.email.from,
        messageIdDomain: fromDomain(settings.email.from),
        manageUrl: (bookingId) => context.links.manage(bookingId),
        giveWay: new GiveWay(() => eventLoopLoad.saturated(), settings.emailMaxGiveWayMs ?? EMAIL_MAX_GIVE_WAY_MS),
        observe: (outcome) => metrics.observeEmail(outcome),
      },
      now,
      app.log,
    );
  const calendarWriter = new CalendarWriteWorker(
    storage.notificationQueue,
    (holderId, sourceId) => openedAddress(context, holderId, sourceId),
    (notice) => hostOccurrence(context.store, notice),
    calendarWriteSettings(settings.webhooks, sources),
    now,
    app.log,
  );
  const calendarSync = new CalendarSyncWorker(
    context,
    { pollIntervalMs: 1_000, concurrency: sources.syncConcurrency, leaseMs: syncLeaseMs(sources) },
    app.log,
  );
  const housekeeper = new Housekeeper(
    storage.housekeeping,
    { retentionDays: settings.webhooks.retentionDays, intervalMs: 60_000, batchSize: 500, maxBatchesPerRound: 20 },
    now,
    app.log,
  );
  // A due row is claimed by one instance and removed with its event; a round a second keeps the
  // lateness under one, for one indexed read per instance. The guest's reminder e-mail (contract
  // §16) is written in the transaction that writes the webhook event.
  const reminders = new ReminderWorker(
    context,
    {
      intervalMs: 1_000,
      batchSize: 100,
      maxBatchesPerRound: 10,
      alsoOnReminder: (tx, events, sending) => queueReminderEmail(context, tx, events, sending),
    },
    app.log,
  );
  return {
    context,
    app,
    worker,
    emailWorker,
    calendarWriter,
    calendarSync,
    housekeeper,
    reminders,
    metrics,
    resetCaches() {
      calendars.clear();
      keys.clear();
      holders.clear();
      teamEventTypes.clear();
      teamSlots.clear();
      renderedTracks.clear();
      renderedFeeds.clear();
    },
    async close(graceMs = SHUTDOWN_GRACE_MS) {
      // In-flight requests get a bounded time to finish; then their connections are cut.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), graceMs);
      await app.close();
      clearTimeout(cutOff);
      // Before the delivery worker: a round under way may still write events for it.
      await reminders.stop();
      await worker.stop(graceMs);
      await emailWorker?.stop(graceMs);
      await calendarWriter.stop(graceMs);
      await emailDelivery?.close();
      await calendarSync.stop(graceMs);
      await housekeeper.stop();
      await sender.close();
      await fetcher.close();
      await threadParser?.close();
    },
  };
}

/** `slotwise serve`: the API and the delivery worker on HOST:PORT until SIGTERM or SIGINT. */
export async function serve(config: Config, storage: Storage): Promise<void> {
  let secrets: ReturnType<typeof openKeyring>;
  try {
    secrets = openKeyring(config);
  } catch (error) {
    await storage.close();
    throw error;
  }
  const server = await composeServer(storage, {
    webhooks: config.webhooks,
    calendarSources: config.calendarSources,
    accounts: config.accounts,
    keyring: secrets.keyring,
    rateLimitPerMinute: config.rateLimitPerMinute,
    authFailuresPerMinute: config.authFailuresPerMinute,
    pageRequestsPerMinute: config.pages.requestsPerMinute,
    fileRequestsPerMinute: config.pages.fileRequestsPerMinute,
    embedOrigins: config.pages.embedOrigins,
    trustProxy: config.trustProxy,
    http: config.http,
    publicBaseUrl: config.publicBaseUrl,
    email: config.email,
    pages: { holdsPerHolder: config.pages.holdsPerHolder, holdsPerClient: config.pages.holdsPerClient },
    log: { level: config.logLevel, destination: bufferedStdout() },
  });
  // How many keys and from where; never a key.
  server.app.log.info({ keys: secrets.keyring.size, from: secrets.from }, 'secrets loaded');
  await server.app.listen({ host: config.host, port: config.port });
  server.worker.start();
  server.emailWorker?.start();
  if (config.email)
    server.app.log.info({ smtpHost: new URL(config.email.smtpUrl).host }, 'e-mail is sent through SMTP');
  else server.app.log.warn('SMTP_URL is not set: no e-mail is sent (booking e-mails need SMTP_URL and EMAIL_FROM)');
  server.calendarWriter.start();
  server.calendarSync.start();
  server.housekeeper.start();
  server.reminders.start();
  if ((await storage.store.apiKeys.count()) === 0) {
    server.app.log.warn(
      'No API keys yet: create one with `npx slotwise keys create --holder NAME --scopes read,write`.',
    );
  }
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  server.app.log.info('shutting down: finishing requests and webhook attempts in flight');
  await server.close();
  await storage.close();
}

/**
 * The keyring of SLOTWISE_SECRET; without it (SQLite only: loadConfig requires it on PostgreSQL),
 * the data folder's key file, made on first start; for an in-memory database, a key that lives as
 * long as the database does.
 */
function openKeyring(config: Config): { keyring: DerivedKeyring; from: string } {
  if (config.secretKeys.length > 0) return { keyring: new DerivedKeyring(config.secretKeys), from: 'SLOTWISE_SECRET' };
  if (config.database.kind === 'postgres') throw new Error('SLOTWISE_SECRET is required with PostgreSQL');
  if (config.database.filename === ':memory:')
    return { keyring: new DerivedKeyring([newSecretKey()]), from: 'a key for this in-memory database' };
  const file = readOrCreateKeyFile(dirname(config.database.filename));
  return { keyring: new DerivedKeyring(file.keys), from: `${file.created ? 'new ' : ''}key file ${file.path}` };
}

/**
 * Log lines go to stdout in batches of about 8 KiB, and at least every quarter second: one
 * system call per request line is measurable on a warm slot query (docs/performance.md). What is buffered is written when the process exits, also after an
 * uncaught error; only a killed process (SIGKILL, power loss) can lose its last quarter second of lines.
 */
function bufferedStdout() {
  const destination = pino.destination({ dest: 1, minLength: 8192, sync: true });
  // A callback, so that a stream already ended at exit reports rather than throws.
  setInterval(() => destination.flush(() => {}), 250).unref();
  // Synchronous writes (as pino's default), so the rest can still be written while exiting.
  process.once('exit', () => destination.flushSync());
  return destination;
}

/** `http://host:port` of the server's address; undefined before it listens (tests on `inject`). */
function listeningUrl(app: FastifyInstance): string | undefined {
  const address = app.server.listening ? app.server.address() : null;
  if (address === null || typeof address === 'string') return undefined;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
