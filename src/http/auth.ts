import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Authentication } from '../app/api-keys.js';
import { callerFor, type AppContext, type Caller, type Principal } from '../app/context.js';
import { grants, scopeNeededFor } from '../domain/api-key.js';
import type { PerMinuteLimit } from './per-minute-limit.js';
import { HttpProblem, problem } from './problems.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * The calendar version of the holder the request acts for, as read with the key or the holder
     * (null before authentication and in account scope): a slot query checks its cached calendar
     * against it without another read.
     */
    calendarVersion: number | null;
  }
}

const UNAUTHORIZED_DETAIL = {
  missing: 'Send an API key as `Authorization: Bearer <key>`.',
  malformed: 'The Authorization header must be `Bearer <key>`.',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
} as const;

/**
 * Runs on every route of the API scope before the body is read: 401 for no usable key. The scope
 * is checked after the rate limit has counted the request (`registerScopeCheck`).
 */
export function registerAuth(app: FastifyInstance, context: AppContext, failures?: PerMinuteLimit): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('calendarVersion', null);
  // A callback, not an async hook: a warm request's key is judged at once (see KeyCache).
  app.addHook('onRequest', (request, _reply, done) => {
    const wait = failures?.retryAfterSeconds(request.ip) ?? 0;
    if (wait > 0) return done(tooManyFailures(failures!.perMinute, wait));
    const judge = (result: Authentication) => {
      if (!result.ok && !isAboutTheHolder(result.reason)) failures?.record(request.ip);
      done(admit(request, result));
    };
    // Sent twice, Node joins the values with ", ": no holder id at all.
    const header = request.headers[HOLDER_HEADER];
    const holder = Array.isArray(header) ? header.join(', ') : header;
    const result = authenticate(context, request.headers.authorization, holder);
    if (result instanceof Promise) result.then(judge, done);
    else judge(result);
  });
}

function tooManyFailures(perMinute: number, retryAfterSeconds: number): HttpProblem {
  return new HttpProblem(
    problem(
      'rate-limited',
      `More than ${perMinute} requests from this address failed authentication this minute; retry in ${retryAfterSeconds} s.`,
    ),
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** Names the holder an account key acts for (contract §12); lower case, as Node gives headers. */
export const HOLDER_HEADER = 'slotwise-holder';

function isAboutTheHolder(reason: string): boolean {
  return reason === 'holder-malformed' || reason === 'holder-not-found';
}

/** Sets the request's principal, or says why it is refused. */
function admit(request: FastifyRequest, result: Authentication): HttpProblem | undefined {
  if (result.ok) {
    request.principal = result.principal;
    request.calendarVersion = result.calendarVersion;
    return undefined;
  }
  switch (result.reason) {
    case 'holder-malformed':
      return new HttpProblem(
        problem('invalid-request', 'The Slotwise-Holder header must be a holder id (`hdr_…`).', [
          { field: 'Slotwise-Holder', message: 'must be a holder id: hdr_ and 20 characters 0-9, a-z' },
        ]),
      );
    case 'holder-not-found':
      return new HttpProblem(problem('not-found', 'No holder with the id in Slotwise-Holder.'));
    default:
      return new HttpProblem(problem('unauthorized', UNAUTHORIZED_DETAIL[result.reason]), {
        'www-authenticate': result.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"',
      });
  }
}

/**
 * 403 for a key without the scope the method needs (`GET`/`HEAD` read, everything else write).
 * Registered after the rate limit, so that refused requests count against the key too: a
 * read-only key cannot make unlimited POSTs.
 */
export function registerScopeCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const needed = scopeNeededFor(request.method);
    if (grants(principalOf(request).scopes, needed)) return done();
    done(
      new HttpProblem(problem('forbidden', `This request needs an API key with the ${needed} scope.`), {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}"`,
      }),
    );
  });
}

/** Who sent a request that passed the auth hook. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route registered outside the authenticated scope');
  return request.principal;
}

/**
 * The caller of a request to a holder's own resources: the key's holder, or the holder an
 * account key names in `Slotwise-Holder`. In account scope such a route needs the header: 400.
 */
export function callerOf(request: FastifyRequest): Caller {
  const principal = principalOf(request);
  if (principal.actingFor === null) throw holderHeaderNeeded();
  return callerFor(principal, principal.actingFor);
}

export function holderHeaderNeeded(): HttpProblem {
  return new HttpProblem(
    problem(
      'invalid-request',
      'This request is about one holder: an account key names it in the Slotwise-Holder header.',
      [{ field: 'Slotwise-Holder', message: 'is required with an account key' }],
    ),
  );
}
