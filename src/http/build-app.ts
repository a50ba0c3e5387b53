import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app/context.js';
import type { IdempotencyLedger } from '../app/ports/idempotency-ledger.js';
import { HolderDeleted, StoreUnavailable } from '../app/ports/storage-errors.js';
import type { Keyring } from '../app/ports/keyring.js';
import type { SchemaStatus } from '../app/ports/schema-status.js';
import { DomainError } from '../domain/errors.js';
import type { PerMinuteLimit } from './per-minute-limit.js';
import type { RenderedFeeds } from './rendered-feeds.js';
import { registerAuth, registerScopeCheck } from './auth.js';
import { capConnections, timeoutOptions, type ConnectionLimits } from './connection-limits.js';
import { registerIdempotency } from './idempotency.js';
import { registerMcp } from './mcp/route.js';
import type { Metrics } from './metrics.js';
import { registerOperations } from './operations.js';
import { registerCalendarFiles } from './calendar-files.js';
import type { ClockFormats } from './pages/clocks.js';
import { registerPages } from './pages/routes.js';
import { registerRateLimit, type RateLimitSettings } from './rate-limit.js';
import type { RenderedTracks } from './rendered-tracks.js';
import { HttpProblem, problem, sendProblem, type Problem } from './problems.js';
import { availabilityRoutes } from './routes/availability.js';
import { registerSharedSchemas } from './schemas/index.js';
import { bookingRoutes } from './routes/bookings.js';
import { calendarSourceRoutes } from './routes/calendar-sources.js';
import { holderRoutes } from './routes/holders.js';
import { holdRoutes } from './routes/holds.js';
import { eventTypeRoutes } from './routes/event-types.js';
import { meRoutes } from './routes/me.js';
import { scheduleRoutes } from './routes/schedules.js';
import { slotRoutes } from './routes/slots.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { SlotWriter } from './slots-body.js';
import { serializerFactory } from './serialization.js';
import { fieldErrors, validatorCompiler } from './validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared by every plugin of the app (an object decorator is inherited by reference). */
    shutdown: { closing: boolean };
  }
}

export const API_PREFIX = '/api/v1';
/** The largest request body (413 past it): the largest usual one, an availability with its 1,000 overrides of two intervals each, is ~99 KiB. */
export const BODY_LIMIT_BYTES = 128 * 1024;

/** What the app is built from besides the use cases' context; the composition root (src/server.ts) builds each. */
export interface AppOptions {
  /** The process's logger (built by the composition root); off when absent. One `request` line per answer at `info`. */
  logger?: FastifyBaseLogger;
  metrics: Metrics;
  idempotencyLedger: IdempotencyLedger;
  /** Encrypts the stored answers of secret-bearing routes (`config.secretBearing`). */
  keyring: Keyring;
  schemaStatus: SchemaStatus;
  slots: { writer: SlotWriter; renderedTracks: RenderedTracks };
  /** Off unless given (tests drive many requests through one key at a frozen clock). */
  rateLimit?: RateLimitSettings;
  /** Requests failing authentication, limited per client address; off unless given. */
  authFailures?: PerMinuteLimit;
  /** Requests to the public pages per client address (`PUBLIC_RATE_LIMIT_PER_MINUTE`); no limit when absent. */
  pageRequests?: PerMinuteLimit;
  /** Requests per calendar-file link (`PUBLIC_FILE_RATE_LIMIT_PER_MINUTE`); no bound when absent. */
  fileRequests?: PerMinuteLimit;
  /** The holders' calendar feeds as last written (bounded). */
  renderedFeeds: RenderedFeeds;
  /** The sites that may frame the booking pages and hear of a booking made in one (`PUBLIC_EMBED_ORIGINS`). */
  embedOrigins: readonly string[];
  /** The booking pages' clocks per language and zone (bounded). */
  pageClocks: ClockFormats;
  /** Whose `X-Forwarded-For` to believe for the client address (Fastify's `trustProxy`); none by default. */
  trustProxy?: boolean | number | string;
  /** Timeouts and connection caps of the server the app listens on. */
  connections: ConnectionLimits;
}

const BOOKING_OPERATIONS: Record<string, 'create' | 'cancel' | 'reschedule'> = {
  [`${API_PREFIX}/bookings`]: 'create',
  [`${API_PREFIX}/bookings/:id/cancel`]: 'cancel',
  [`${API_PREFIX}/bookings/:id/reschedule`]: 'reschedule',
};

/** Builds the HTTP app without listening, so tests drive it with `inject` and `main` decides where it listens. */
export async function buildApp(context: AppContext, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // One line per response is logged below; Fastify's two lines per request would double the cost.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...timeoutOptions(options.connections),
    trustProxy: trustedProxies(options.trustProxy),
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory } },
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route runs (a malformed %-escape in the path, an
    // over-long path parameter) bypass the error handler: answer them as problems too.
    frameworkErrors: (error, _request, reply) => {
      const { body, headers } = toProblem(error);
      return sendProblem(reply, body, headers);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  capConnections(app.server, options.connections, (cut) => options.metrics.observeConnectionCut(cut));
  app.setValidatorCompiler(validatorCompiler);
  // The schemas routes refer to by `$ref`: reply serialisation resolves them through the app.
  registerSharedSchemas(app);
  registerJsonParser(app);
  registerNulGuard(app);
  const routes = recordRoutes(app);

  // Hooks with nothing to wait for take a callback: an async hook costs a promise and a
  // microtask per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // During shutdown, a request still in flight answers with `Connection: close`: otherwise its
  // keep-alive connection holds the closing server open until the grace period cuts it.
  app.decorate('shutdown', { closing: false });
  app.addHook('preClose', async () => {
    app.shutdown.closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.shutdown.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  const metrics = options.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? null;
    const status = reply.statusCode;
    // The root logger, not the request's child: the fields are the same, and a child per request costs.
    app.log.info(
      {
        reqId: request.id,
        method: request.method,
        route,
        status,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key: request.principal?.keyId,
      },
      'request',
    );
    metrics.observeRequest(request.method, route ?? 'unmatched', status, reply.elapsedTime / 1000);
    const operation = request.method === 'POST' && route !== null ? BOOKING_OPERATIONS[route] : undefined;
    if (operation) metrics.observeBooking(operation, status);
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { body, headers } = toProblem(error);
    // The store being unavailable is the operator's to see (and /readyz says so), not a defect.
    if (error instanceof StoreUnavailable) request.log.warn({ err: error }, 'store unavailable');
    else if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, body, headers);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0) {
      return sendProblem(reply, problem('method-not-allowed', `${request.method} is not supported on ${path}.`), {
        allow: allowed.join(', '),
      });
    }
    return sendProblem(reply, problem('not-found', `No route ${request.method} ${path}.`));
  });

  registerOperations(app, options.schemaStatus, metrics);
  registerCalendarFiles(app, context, { requests: options.fileRequests, feeds: options.renderedFeeds });
  await registerPages(app, context, {
    requests: options.pageRequests,
    embedOrigins: options.embedOrigins,
    clocks: options.pageClocks,
  });

  // ---- OpenAPI document (GET /api/v1/openapi.json) and reference page (GET /docs), no key needed.
  // Registered before the API routes: @fastify/swagger collects the routes added after it.
  {
    const { registerOpenApi } = await import('./openapi.js');
    await registerOpenApi(app, { apiPrefix: API_PREFIX });
  }
  // ---- end OpenAPI

  await app.register(
    async (api) => {
      registerAuth(api, context, options.authFailures);
      if (options.rateLimit) registerRateLimit(api, options.rateLimit, context.now);
      registerScopeCheck(api);
      registerIdempotency(api, options.idempotencyLedger, options.keyring, context.now);
      await api.register(meRoutes(context));
      await api.register(eventTypeRoutes(context));
      await api.register(availabilityRoutes(context));
      await api.register(scheduleRoutes(context));
      await api.register(slotRoutes(context, options.slots));
      await api.register(holdRoutes(context));
      await api.register(bookingRoutes(context));
      await api.register(webhookRoutes(context));
      await api.register(calendarSourceRoutes(context));
      await api.register(holderRoutes(context));
    },
    { prefix: API_PREFIX },
  );
  await registerMcp(app, context, options.authFailures);
  return app;
}

/** Fastify's `trustProxy`, where a number of hops is a function of the hop (its typings take no number). */
function trustedProxies(
  setting: AppOptions['trustProxy'],
): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting ?? false;
}

/** JSON bodies, where an empty body means "no body" (e.g. a cancel without a reason). */
function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  // Fastify also parses text/plain by default; a body that is not JSON is a 415, on every method.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      done(
        new HttpProblem(
          problem('invalid-request', `The body is not valid JSON: ${(error as Error).message}`, [
            { field: 'body', message: 'must be valid JSON' },
          ]),
        ),
        undefined,
      );
      return;
    }
    // Only an escaped \u0000 can put a NUL into a parsed string; the walk runs only then.
    const nulAt = text.includes('\\u0000') ? pathOfNul(parsed) : null;
    if (nulAt !== null) return done(nulProblem(nulAt || 'body'), undefined);
    done(null, parsed);
  });
}

/**
 * Text never contains U+0000: PostgreSQL cannot store it, and no name, id or note needs it.
 * Rejected for both stores alike, in bodies (above) and in path and query parameters.
 */
function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    done(nulIn(request.params) ?? nulIn(request.query));
  });
}

/** The problem for the first parameter holding U+0000, or undefined. */
function nulIn(values: unknown): HttpProblem | undefined {
  if (typeof values !== 'object' || values === null) return undefined;
  for (const [name, value] of Object.entries(values)) {
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text === 'string' && text.includes('\u0000'))) return nulProblem(name);
  }
  return undefined;
}

function nulProblem(field: string): HttpProblem {
  return new HttpProblem(
    problem('invalid-request', 'Text must not contain the NUL character (U+0000).', [
      { field, message: 'must not contain the NUL character (U+0000)' },
    ]),
  );
}

/**
 * The path (`a.b[2]`) of the first string or key holding U+0000, or null. Walked with a stack of
 * its own, not by recursion: a 128 KiB body can nest tens of thousands of levels deep, past the
 * call stack (and a path per level would be quadratic: only the found one is spelt out).
 */
function pathOfNul(document: unknown): string | null {
  interface Step {
    value: unknown;
    /** How this value is reached from its parent (`.key`, `[2]`), and the parent's step. */
    segment: string;
    parent: Step | null;
    /** The key this value is reached by holds U+0000 itself. */
    nulInKey: boolean;
  }
  const spell = (step: Step): string => {
    const segments: string[] = [];
    for (let at: Step | null = step; at !== null; at = at.parent) segments.push(at.segment);
    return segments.reverse().join('').replace(/^\./, '');
  };
  const pending: Step[] = [{ value: document, segment: '', parent: null, nulInKey: false }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const { value } = step;
    if (step.nulInKey) return spell(step);
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return spell(step);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const children: Step[] = [];
    for (const [key, child] of Object.entries(value)) {
      const segment = Array.isArray(value) ? `[${key}]` : `.${key}`;
      children.push({ value: child, segment, parent: step, nulInKey: key.includes('\u0000') });
    }
    // Reversed onto the stack, so the first child is looked at first (document order).
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return null;
}

/** Remembers every route's path pattern and methods, to answer 405 with `Allow` for a known path. */
function recordRoutes(app: FastifyInstance) {
  const patterns: Array<{ regex: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', (route) => {
    const regex = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`);
    let entry = patterns.find((p) => p.regex.source === regex.source);
    if (!entry) {
      entry = { regex, methods: new Set() };
      patterns.push(entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
  });
  return {
    methodsFor(path: string): string[] {
      const methods = new Set<string>();
      for (const p of patterns) if (p.regex.test(path)) for (const m of p.methods) methods.add(m);
      return [...methods].sort();
    },
  };
}

function toProblem(error: FastifyError): { body: Problem; headers: Record<string, string> } {
  if (error instanceof HttpProblem) return { body: error.problem, headers: error.headers };
  if (error instanceof DomainError) return { body: problem(error.code, error.message, error.errors), headers: {} };
  if (error instanceof HolderDeleted) {
    return {
      body: problem('not-found', 'The holder was deleted while this request ran; nothing was written.'),
      headers: {},
    };
  }
  if (error instanceof StoreUnavailable) {
    return {
      body: problem('unavailable', `${error.reason}; try again shortly.`),
      headers: { 'retry-after': String(error.retryAfterSeconds) },
    };
  }
  if (error.validation) {
    const errors = fieldErrors(error.validation as never, error.validationContext);
    return { body: problem('invalid-request', 'The request does not validate; see errors.', errors), headers: {} };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { body: problem('payload-too-large', `The body is larger than ${BODY_LIMIT_BYTES} bytes.`), headers: {} };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { body: problem('unsupported-media-type', 'Send the body as application/json.'), headers: {} };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { body: problem('invalid-request', error.message), headers: {} };
  }
  return {
    body: problem('internal', 'Something went wrong on our side; the request id identifies it in our logs.'),
    headers: {},
  };
}
