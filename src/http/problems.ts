import type { FastifyReply } from 'fastify';
import type { DomainErrorCode, FieldError } from '../domain/errors.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const PROBLEM_TYPES = {
  'invalid-request': { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'slot-unavailable': { status: 409, title: 'Slot unavailable' },
  'invalid-state': { status: 409, title: 'Invalid state' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  internal: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemKind = keyof typeof PROBLEM_TYPES;

// Every domain error code is a problem kind of the same name: the mapping is the identity, checked here.
const _domainCodesAreProblemKinds: Record<DomainErrorCode, ProblemKind> = {
  'invalid-request': 'invalid-request',
  'not-found': 'not-found',
  'slot-unavailable': 'slot-unavailable',
  'invalid-state': 'invalid-state',
  conflict: 'conflict',
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
  return { type: `urn:service:problem:${kind}`, title, status, detail, ...(errors && errors.length > 0 ? { errors } : {}) };
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
