/** Closed set of failure kinds the use cases can report; the HTTP layer maps each to a problem type once. */
export type DomainErrorCode =
  | 'invalid-request'
  | 'forbidden'
  | 'not-found'
  | 'slot-unavailable'
  | 'invalid-state'
  | 'conflict'
  | 'limit-reached'
  | 'hold-expired';

/**
 * What is wrong with a field, for readers that word it themselves: the booking pages say each in
 * the guest's language (src/http/pages/messages.ts). The API sends `field` and `message` only.
 */
export type FieldErrorCode = 'required' | 'too-long' | 'not-one-line' | 'invalid-email' | 'invalid';

export interface FieldError {
  field: string;
  message: string;
  /** Set where a page may show the error: absent is `invalid`. */
  code?: FieldErrorCode;
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
