import type { FastifyReply } from 'fastify';
import type { DomainErrorCode, FieldError } from '../domain/errors.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Every problem type the API answers with: status, title, and when it happens (the last is what
 * the OpenAPI document and /docs tell integrators, so keep it true).
 */
export const PROBLEM_TYPES = {
  'invalid-request': {
    status: 400,
    title: 'Invalid request',
    when: 'The body, query or path does not validate (one `errors` entry per failing field, nested fields as paths such as `weekly.monday[0].start`), the body is not valid JSON, or the input makes no sense as a whole (`from >= to`, a range over 62 days, an unknown `eventTypeId` in a body or query).',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    when: 'No API key, or a malformed, unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer` (plus `error="invalid_token"` when a key was sent).',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    when: 'The API key lacks the scope the operation needs (sent with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`), or a host of a team event type tries to change or delete it: only account scope does.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    when: "No such resource for the holder the key acts for, or in account scope for its account (other holders' and other accounts' ids are not found either); a `Slotwise-Holder` naming no holder the key may act for; or no such route.",
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    when: 'The path exists, but not with this method; `Allow` lists the methods it has.',
  },
  'slot-unavailable': {
    status: 409,
    title: 'Slot unavailable',
    when: 'The requested start is not bookable at this moment (off the grid, too soon, outside the booking window, day full, or overlapping another booking); `detail` says why.',
  },
  'invalid-state': {
    status: 409,
    title: 'Invalid state',
    when: 'The resource is not in a state that allows this (a booking that is not `confirmed`, an inactive webhook, a delivery still pending), or the answer stored for an `Idempotency-Key` shows a secret that is no longer shown (the webhook it registered was deleted) or can no longer be read (the server key that encrypted it was retired).',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: "A unique field is taken (an event type's explicit `slug`, a holder's `name` in its account, a holder's or an account's `handle`; the `errors` entry names the field), or a schedule cannot be deleted (the default one, or one an event type books in).",
  },
  'limit-reached': {
    status: 409,
    title: 'Limit reached',
    when: 'A cap on a collection is reached (webhooks per holder `WEBHOOK_LIMIT_PER_HOLDER` and per account `WEBHOOK_LIMIT_PER_ACCOUNT`, holders per account `HOLDERS_PER_ACCOUNT`, live keys per holder `KEYS_PER_HOLDER`, schedules per holder `SCHEDULES_PER_HOLDER`, calendar sources per holder); delete one to make room.',
  },
  'hold-expired': {
    status: 409,
    title: 'Hold expired',
    when: 'The `holdId` of a booking names no live hold of this account: it expired, was released or already booked, or never existed.',
  },
  'idempotency-conflict': {
    status: 409,
    title: 'Idempotency conflict',
    when: 'A request with the same `Idempotency-Key` is still in flight; retry after it finished.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    when: 'The body is larger than 128 KiB.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    when: 'A body was sent, but not as `application/json`.',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'Idempotency key reused',
    when: 'The `Idempotency-Key` was already used, within 24 hours, with a different request.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    when: 'The API key made more requests this minute than its limit allows, or a calendar source was synced on request (`POST /calendar-sources/{id}/sync`) less than 30 s ago; `Retry-After` says how many seconds to wait.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    when: 'Something failed on the server. Never carries stack traces or SQL; the `x-request-id` response header identifies the request in the server log.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    when: 'The database cannot take the request now (unreachable, out of connections or disk, or too busy); nothing was changed, and `Retry-After` says when to try again. `/readyz` answers it while the database does not answer or has migrations pending.',
  },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

export type ProblemKind = keyof typeof PROBLEM_TYPES;

// Every domain error code is a problem kind of the same name: the mapping is the identity, checked here.
const _domainCodesAreProblemKinds: Record<DomainErrorCode, ProblemKind> = {
  'invalid-request': 'invalid-request',
  forbidden: 'forbidden',
  'not-found': 'not-found',
  'slot-unavailable': 'slot-unavailable',
  'invalid-state': 'invalid-state',
  conflict: 'conflict',
  'limit-reached': 'limit-reached',
  'hold-expired': 'hold-expired',
};
void _domainCodesAreProblemKinds;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

export function problem(kind: ProblemKind, detail: string, errors?: FieldError[]): Problem {
  const { status, title } = PROBLEM_TYPES[kind];
  return {
    type: `urn:service:problem:${kind}`,
    title,
    status,
    detail,
    // A field error's `code` is for the pages' own wording; the API's answer is its field and message.
    ...(errors && errors.length > 0 ? { errors: errors.map(({ field, message }) => ({ field, message })) } : {}),
  };
}

/** An error that already knows its problem document (and any headers it needs, e.g. WWW-Authenticate). */
export class HttpProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
    this.name = 'HttpProblem';
  }
}

export function sendProblem(reply: FastifyReply, body: Problem, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(body.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(body);
}
