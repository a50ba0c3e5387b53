import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../domain/errors.js';
import { parseInstant, parseQueryInstant } from '../domain/instant.js';
import { NAME_MESSAGE, NAME_PATTERN } from '../domain/names.js';
import { canonicalTimeZone } from '../domain/zone.js';
import { INSTANT_FORMAT, QUERY_INSTANT_FORMAT, TIME_ZONE_FORMAT } from './formats.js';
import { SHARED_SCHEMAS } from './schemas/index.js';
import { CompiledBySchema } from './serialization.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true, // one `errors` entry per failing field, not just the first
    verbose: true, // keeps parentSchema on errors, where `x-message` lives
    coerceTypes, // query strings and path parameters are text; bodies are typed JSON and never coerced
    useDefaults: true,
    removeAdditional: false, // unknown fields are rejected, not silently dropped
    strict: true, // a misspelt keyword or an unknown format in a schema is an error, not ignored
    // Ajv's strictNumbers (on with strict) lets a query's "Infinity" through its coercion to integer: a
    // 500 at the database. Off, "Infinity" is a 400 like any other non-integer (test/http/event-types.test.ts).
    strictNumbers: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  // Checked in the schema, so that a bad instant or zone is reported with every other bad field.
  ajv.addFormat(INSTANT_FORMAT, { type: 'string', validate: (text: string) => parseInstant(text).ok });
  ajv.addFormat(QUERY_INSTANT_FORMAT, { type: 'string', validate: (text: string) => parseQueryInstant(text).ok });
  ajv.addFormat(TIME_ZONE_FORMAT, {
    type: 'string',
    validate: (text: string) => canonicalTimeZone(text) !== undefined,
  });
  // The schemas routes refer to with `ref(...)`. Fastify hands the schemas added with
  // `app.addSchema` only to a validator built by `schemaController.compilersFactory.buildValidator`,
  // not to one installed with `setValidatorCompiler`: this one knows them from the start.
  for (const schema of SHARED_SCHEMAS) ajv.addSchema(schema);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/**
 * A validator of a typed body with the API's own rules (formats, name pattern, shared schemas):
 * the booking pages check their forms with it (src/http/pages/form.ts).
 */
export function compileBodyValidator<T>(schema: object): ValidateFunction<T> {
  return bodyAjv.compile<T>(schema);
}

const validators = new CompiledBySchema<ValidateFunction>();

/** Each route part's validator, compiled once per process for each schema (`CompiledBySchema`). */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return validators.of(schema, () => compileBodyValidator(schema as object), 'body');
  return validators.of(schema, () => textAjv.compile(schema as object) as ValidateFunction, 'text');
};

/** Ajv's errors → one entry per field, with paths like `weekly.monday[0].start`. */
export function fieldErrors(errors: ErrorObject[], part: string | undefined): FieldError[] {
  // Per field, the most specific message wins: a format's own explanation, then a schema's
  // `x-message`, then Ajv's first message.
  const byField = new Map<string, { rank: number; message: string }>();
  for (const error of errors) {
    // An `if` only says which of its branch's errors (reported on their own) applied.
    if (error.keyword === 'if') continue;
    const field = fieldOf(error, part);
    const candidate = explain(error);
    const current = byField.get(field);
    if (!current || candidate.rank < current.rank) byField.set(field, candidate);
  }
  return [...byField].map(([field, { message }]) => ({ field, message }));
}

function explain(error: ErrorObject): { rank: number; message: string } {
  if (error.keyword === 'format' && error.params.format === INSTANT_FORMAT) {
    const parsed = parseInstant(String(error.data));
    if (!parsed.ok) return { rank: 0, message: parsed.message };
  }
  if (error.keyword === 'format' && error.params.format === QUERY_INSTANT_FORMAT) {
    const parsed = parseQueryInstant(String(error.data));
    if (!parsed.ok) return { rank: 0, message: parsed.message };
  }
  if (error.keyword === 'format' && error.params.format === TIME_ZONE_FORMAT) {
    return { rank: 0, message: 'must be an IANA time zone name, e.g. Europe/Berlin' };
  }
  if (error.keyword === 'pattern' && error.params.pattern === NAME_PATTERN) return { rank: 0, message: NAME_MESSAGE };
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  if (typeof custom === 'string') return { rank: 1, message: custom };
  return { rank: 2, message: messageOf(error) };
}

function fieldOf(error: ErrorObject, part: string | undefined): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  let path = '';
  for (const segment of segments)
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  return path === '' ? (part ?? 'body') : path;
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
    case 'const':
      return `must be one of: ${JSON.stringify(error.params.allowedValues ?? [error.params.allowedValue])}`;
    default:
      return error.message ?? 'is invalid';
  }
}
