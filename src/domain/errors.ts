/** Closed set of failure kinds the use cases can report; the HTTP layer maps each to a problem type once. */
export type DomainErrorCode =
  | 'invalid-request'
  | 'not-found'
  | 'slot-unavailable'
  | 'invalid-state'
  | 'conflict'
  | 'limit-reached'
  | 'hold-expired';

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly errors: FieldError[];

  constructor(code: DomainErrorCode, detail: string, errors: FieldError[] = []) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }
}

export function invalidRequest(errors: FieldError[], detail?: string): DomainError {
  return new DomainError('invalid-request', detail ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
}

export function notFound(what: string): DomainError {
  return new DomainError('not-found', `${what} was not found.`);
}
