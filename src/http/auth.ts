import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Authentication } from '../app/api-keys.js';
import type { AppContext, Caller } from '../app/context.js';
import { grants, scopeNeededFor } from '../domain/api-key.js';
import type { PerMinuteLimit } from './per-minute-limit.js';
import { HttpProblem, problem } from './problems.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /**
     * The caller's calendar version as read with the key (null before authentication): a slot
     * query checks its cached calendar against it without another read.
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
  app.decorateRequest('caller', null);
  app.decorateRequest('calendarVersion', null);
  // A callback, not an async hook: a warm request's key is judged at once (see KeyCache).
  app.addHook('onRequest', (request, _reply, done) => {
    const wait = failures?.retryAfterSeconds(request.ip) ?? 0;
    if (wait > 0) return done(tooManyFailures(failures!.perMinute, wait));
    const judge = (result: Authentication) => {
      if (!result.ok) failures?.record(request.ip);
      done(admit(request, result));
    };
    const result = authenticate(context, request.headers.authorization);
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

/** Sets the request's caller, or says why it is refused. */
function admit(request: FastifyRequest, result: Authentication): HttpProblem | undefined {
  if (!result.ok) {
    const challenge = result.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"';
    return new HttpProblem(problem('unauthorized', UNAUTHORIZED_DETAIL[result.reason]), {
      'www-authenticate': challenge,
    });
  }
  request.caller = result.caller;
  request.calendarVersion = result.calendarVersion;
  return undefined;
}

/**
 * 403 for a key without the scope the method needs (`GET`/`HEAD` read, everything else write).
 * Registered after the rate limit, so that refused requests count against the key too: a
 * read-only key cannot make unlimited POSTs.
 */
export function registerScopeCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const caller = callerOf(request);
    const needed = scopeNeededFor(request.method);
    if (grants(caller.scopes, needed)) return done();
    done(
      new HttpProblem(problem('forbidden', `This request needs an API key with the ${needed} scope.`), {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}"`,
      }),
    );
  });
}

/** The caller of a request that passed the auth hook. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route registered outside the authenticated scope');
  return request.caller;
}
