// The MCP tools of contract §17: each is one API route, its input schema made from that route's
// own TypeBox schemas (a body, a query, an id), and its call a request to the route. Both
// transports share them: `/mcp` calls the routes in-process (src/http/mcp/route.ts), `slotwise
// mcp` over HTTP (src/cli/mcp.ts). Auth, scopes, `Slotwise-Holder`, idempotency, rate limits and
// error mapping are therefore the API's, applied once.
import type { ValidateFunction } from 'ajv';
import { Type, type TSchema } from 'typebox';
import { grants, scopeNeededFor, type Scope } from '../../domain/api-key.js';
import { problem, type Problem } from '../problems.js';
import {
  CancelBookingBody,
  CreateBookingBody,
  CreateHoldBody,
  HolderHeader,
  IdempotencyKeyHeader,
  ListBookingsQuery,
  ListEventTypesQuery,
  RescheduleBookingBody,
  SHARED_SCHEMAS,
  SlotsQuery,
} from '../schemas/index.js';
import { compileBodyValidator, fieldErrors } from '../validation.js';

/** A request a tool makes of the API; `holderId` and `idempotencyKey` are sent as their headers. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** With the `/api/v1` prefix. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  holderId?: string;
  idempotencyKey?: string;
}

/** The API's answer: its status and its JSON body (null when it has none). */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export type CallApi = (call: ApiCall) => Promise<ApiAnswer>;

/** An answer's JSON, or its text when it is not JSON; null when empty. */
export function bodyOf(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type Json = Record<string, unknown>;
type Arguments = Record<string, unknown>;

interface ToolRoute {
  name: string;
  description: string;
  method: ApiCall['method'];
  /** The route's own schema the input is made from (`properties`, `required` and an `if`/`else` are kept). */
  input: TSchema;
  /** Inputs that are no part of `input` (an id in the path, a header). */
  extra?: Record<string, TSchema>;
  /** Names of `extra` that are required. */
  extraRequired?: string[];
  /** Inputs of `input` the tool leaves out (the account scope's `holderId` filter: `holderId` is the header here). */
  omit?: string[];
  call(args: Arguments): Omit<ApiCall, 'method' | 'holderId'>;
}

const API = '/api/v1';
const idOf = (what: string, prefix: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `The ${what}'s id (\`${prefix}_…\`)` });
const segment = (value: unknown) => encodeURIComponent(String(value));

/** Query parameters as the API reads them: text. */
function queryOf(args: Arguments): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value)]));
}

const ROUTES: readonly ToolRoute[] = [
  {
    name: 'list_event_types',
    description:
      'List the event types (what can be booked: title, duration, questions), oldest first, a page at a time (`nextCursor` → `cursor`). GET /api/v1/event-types.',
    method: 'GET',
    input: ListEventTypesQuery,
    omit: ['holderId'],
    call: (args) => ({ path: `${API}/event-types`, query: queryOf(args) }),
  },
  {
    name: 'get_event_type',
    description: 'Read one event type. GET /api/v1/event-types/{id}.',
    method: 'GET',
    input: Type.Object({}),
    extra: { eventTypeId: idOf('event type', 'evt') },
    extraRequired: ['eventTypeId'],
    call: ({ eventTypeId }) => ({ path: `${API}/event-types/${segment(eventTypeId)}` }),
  },
  {
    name: 'find_slots',
    description:
      'The bookable start times of an event type in [from, to), rendered in `timeZone` (UTC by default). Pass a slot’s `start` to hold_slot or book. GET /api/v1/slots.',
    method: 'GET',
    input: SlotsQuery,
    call: (args) => ({ path: `${API}/slots`, query: queryOf(args) }),
  },
  {
    name: 'hold_slot',
    description:
      'Hold a slot for a while (default 5 minutes) so nobody else books it while the guest decides; book it with `holdId`. POST /api/v1/holds.',
    method: 'POST',
    input: CreateHoldBody,
    call: (args) => ({ path: `${API}/holds`, body: args }),
  },
  {
    name: 'release_hold',
    description: 'Free a held time at once. DELETE /api/v1/holds/{id}.',
    method: 'DELETE',
    input: Type.Object({}),
    extra: { holdId: idOf('hold', 'hld') },
    extraRequired: ['holdId'],
    call: ({ holdId }) => ({ path: `${API}/holds/${segment(holdId)}` }),
  },
  {
    name: 'book',
    description:
      'Book a time: a hold’s (`holdId`) or an event type’s `start` (`eventTypeId` + `start`), for a guest. Send an `idempotencyKey` to retry safely. POST /api/v1/bookings.',
    method: 'POST',
    input: CreateBookingBody,
    extra: {
      idempotencyKey: {
        ...IdempotencyKeyHeader,
        description:
          'Sent as `Idempotency-Key`: the same key with the same arguments within 24 hours answers the first booking again instead of booking twice.',
      },
    },
    call: ({ idempotencyKey, ...body }) => ({
      path: `${API}/bookings`,
      body,
      ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
    }),
  },
  {
    name: 'get_booking',
    description: 'Read one booking. GET /api/v1/bookings/{id}.',
    method: 'GET',
    input: Type.Object({}),
    extra: { bookingId: idOf('booking', 'bkg') },
    extraRequired: ['bookingId'],
    call: ({ bookingId }) => ({ path: `${API}/bookings/${segment(bookingId)}` }),
  },
  {
    name: 'list_bookings',
    description:
      'List bookings by start, optionally in [from, to) and of one event type, a page at a time (`nextCursor` → `cursor`). GET /api/v1/bookings.',
    method: 'GET',
    input: ListBookingsQuery,
    omit: ['holderId'],
    call: (args) => ({ path: `${API}/bookings`, query: queryOf(args) }),
  },
  {
    name: 'cancel_booking',
    description: 'Cancel a booking, with an optional reason the guest is told. POST /api/v1/bookings/{id}/cancel.',
    method: 'POST',
    input: CancelBookingBody,
    extra: { bookingId: idOf('booking', 'bkg') },
    extraRequired: ['bookingId'],
    call: ({ bookingId, ...body }) => ({ path: `${API}/bookings/${segment(bookingId)}/cancel`, body }),
  },
  {
    name: 'reschedule_booking',
    description:
      'Move a booking to another start: a new booking is made and the old one marked rescheduled. POST /api/v1/bookings/{id}/reschedule.',
    method: 'POST',
    input: RescheduleBookingBody,
    extra: { bookingId: idOf('booking', 'bkg') },
    extraRequired: ['bookingId'],
    call: ({ bookingId, ...body }) => ({ path: `${API}/bookings/${segment(bookingId)}/reschedule`, body }),
  },
  {
    name: 'get_availability',
    description:
      'The weekly hours and date overrides in their time zone (the default schedule). GET /api/v1/availability.',
    method: 'GET',
    input: Type.Object({}),
    call: () => ({ path: `${API}/availability` }),
  },
];

const HOLDER_ID_INPUT: Json = {
  ...plain(HolderHeader),
  description:
    'Account keys: the holder (`hdr_…`) to act for, sent as `Slotwise-Holder`; without it the account itself (or the server’s configured holder).',
};

/** A tool as `tools/list` shows it, with the validator of its arguments. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  scope: 'read' | 'write';
  route: ToolRoute;
  validate: ValidateFunction;
}

const SHARED_BY_ID = new Map(SHARED_SCHEMAS.map((schema) => [(schema as { $id: string }).$id, schema]));

/** A schema as plain JSON without `$id`, every `$ref` to a shared schema replaced by that schema: self-contained for MCP clients. */
function plain(schema: unknown): Json {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && SHARED_BY_ID.has(ref)) return copy(SHARED_BY_ID.get(ref));
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) if (key !== '$id') out[key] = copy(inner);
    return out;
  };
  return copy(JSON.parse(JSON.stringify(schema))) as Json;
}

function inputSchemaOf(route: ToolRoute, accountKey: boolean): Tool['inputSchema'] {
  const base = plain(route.input);
  const properties: Json = { ...(base.properties as Json | undefined) };
  for (const name of route.omit ?? []) delete properties[name];
  for (const [name, schema] of Object.entries(route.extra ?? {})) properties[name] = plain(schema);
  if (accountKey) properties.holderId = HOLDER_ID_INPUT;
  const required = [...((base.required as string[] | undefined) ?? []), ...(route.extraRequired ?? [])].filter(
    (name) => name in properties,
  );
  const schema: Tool['inputSchema'] = { ...base, type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  return schema;
}

function toolsOf(accountKey: boolean): readonly Tool[] {
  return ROUTES.map((route) => {
    const inputSchema = inputSchemaOf(route, accountKey);
    return {
      name: route.name,
      description: route.description,
      inputSchema,
      scope: scopeNeededFor(route.method),
      route,
      validate: compileBodyValidator(inputSchema),
    };
  });
}

// Built once: the schemas are fixed, and compiling their validators is the costly part.
const FOR_HOLDER_KEYS = toolsOf(false);
const FOR_ACCOUNT_KEYS = toolsOf(true);

/** The tool of that name (whether or not the key may use it), with `holderId` for account keys. */
export function toolNamed(name: string, accountKey: boolean): Tool | undefined {
  return (accountKey ? FOR_ACCOUNT_KEYS : FOR_HOLDER_KEYS).find((tool) => tool.name === name);
}

/** The tools a key with these scopes may use, in the contract's order: the others are not listed. */
export function toolsFor(scopes: readonly Scope[], accountKey: boolean): Tool[] {
  return (accountKey ? FOR_ACCOUNT_KEYS : FOR_HOLDER_KEYS).filter((tool) => grants(scopes, tool.scope));
}

/** What a tool call comes to: a call of the API, or a problem with the arguments. */
export function callOf(tool: Tool, args: Arguments): { ok: true; call: ApiCall } | { ok: false; problem: Problem } {
  // Ajv fills defaults in: validate a copy, not the client's arguments.
  const checked = structuredClone(args);
  if (!tool.validate(checked)) {
    return {
      ok: false,
      problem: problem(
        'invalid-request',
        `The arguments of ${tool.name} do not validate; see errors.`,
        fieldErrors(tool.validate.errors ?? [], 'arguments'),
      ),
    };
  }
  const { holderId, ...rest } = checked;
  return {
    ok: true,
    call: {
      method: tool.route.method,
      ...tool.route.call(rest),
      ...(typeof holderId === 'string' ? { holderId } : {}),
    },
  };
}
