import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { HOLDER_ID_PATTERN } from '../../app/api-keys.js';
import { LOCATION_TYPES, MAX_LOCATION_LENGTH, type LocationType } from '../../domain/location.js';
import { NAME_PATTERN } from '../../domain/names.js';
import { INSTANT_FORMAT, QUERY_INSTANT_FORMAT, TIME_ZONE_FORMAT } from '../formats.js';
import { PROBLEM_TYPES } from '../problems.js';

// The definitions every resource's schemas share.

/**
 * One TypeBox schema per body, query and response: validation, handler types, serialisation and
 * the OpenAPI document all come from here. `x-message` replaces Ajv's wording for a field whose
 * alternatives would otherwise produce several confusing messages.
 *
 * The schemas with an `$id` are shared: `registerSharedSchemas` adds them to the app
 * (`app.addSchema`), routes and other shared schemas point at them with `ref(...)`, and
 * @fastify/swagger emits each as `#/components/schemas/<$id>`. Their `$id` is therefore the name
 * integrators (and generated clients) see.
 */

/**
 * A `$ref` to a shared schema, typed as that schema: `Type.Ref` alone is typed `unknown`, which
 * would leave handlers' bodies and replies unchecked.
 */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('ref() needs a shared schema, one with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);
export const Timestamp = Type.String({ format: 'date-time', description: 'UTC, e.g. 2026-01-05T08:00:00.000Z' });
/** A name, title or label: one line of up to 200 characters (src/domain/names.ts). */
export const Name = (options: { minLength: number } = { minLength: 1 }) =>
  Type.String({
    ...options,
    maxLength: 200,
    pattern: NAME_PATTERN,
    description: 'One line: control characters (line breaks, tabs) are refused',
  });
export const Id = (prefix: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `Opaque id, \`${prefix}_…\`` });

export const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the resource' }) },
  { additionalProperties: false },
);

const EPOCH_MS_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const QueryInstant = Type.String({
  maxLength: 64,
  format: QUERY_INSTANT_FORMAT,
  description: 'ISO-8601 with an explicit offset, or epoch milliseconds',
});
export const TimeZoneName = Type.String({
  maxLength: 64,
  format: TIME_ZONE_FORMAT,
  description: 'IANA time zone name, e.g. Europe/Berlin',
});

export const InstantInput = Type.Union(
  [Type.String({ maxLength: 64, format: INSTANT_FORMAT }), Type.Integer({ minimum: 0, maximum: EPOCH_MS_MAX })],
  {
    $id: 'Instant',
    'x-message': 'must be an ISO-8601 date-time with an explicit offset or integer epoch milliseconds',
    description: 'ISO-8601 with an explicit offset (`Z` or `±hh:mm`), or integer epoch milliseconds',
  },
);

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Items per page' })),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'The `nextCursor` of the previous page; omit for the first page',
    }),
  ),
};

/** `holderId` of event types, bookings and holds (contract §12). */
export const OwnerHolderId = (what: string) =>
  Nullable(Type.String(), {
    description: `The holder ${what} belongs to (\`hdr_…\`), or null for what the account itself owns (team event types and their bookings and holds). Read-only.`,
  });

/** `hostIds` of bookings and holds (contract §14). */
export const HostIds = (what: string) =>
  Type.Array(Type.String(), {
    description: `The holders whose time ${what} occupies (\`hdr_…\`), fixed when it was made: for a personal event type, its holder; for a team type, the hosts it was assigned. Read-only.`,
  });

/** `hostId` of a booking, hold or reschedule of a round-robin team event type (contract §14). */
export const HostIdInput = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: `Round-robin team event types only (contract §14): the host (\`hdr_…\`) ${what}, instead of the one the service would choose; it must be a host of the type that is not fixed (else 400 on \`hostId\`), and if it is not free, the answer is 409 \`slot-unavailable\`. A holder's own or a collective event type takes none (400).`,
  });

/** The `holderId` filter of the lists an account key reads in account scope (contract §12). */
export const HolderFilter = {
  holderId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "Account scope (an account key without `Slotwise-Holder`): only that holder's items; without it, every holder's of the account. A holder this key cannot see (unknown, another account's; with a holder key or the header, any other holder) is a 400 on `holderId`.",
    }),
  ),
};

/** A list's filter by time (`[from, to)`), event type and holder: bookings' and holds'. */
export const ListInRangeQuery = Type.Object(
  {
    from: Type.Optional(QueryInstant),
    to: Type.Optional(QueryInstant),
    eventTypeId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...HolderFilter,
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const listOf = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  });

/** For actions that take no input: an absent body, an empty body and `{}` are all accepted. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

/** The body of every error answer (src/http/problems.ts); only documented, as problems are sent as built. */
export const ProblemDocument = Type.Object(
  {
    type: Type.String({
      enum: Object.keys(PROBLEM_TYPES).map((kind) => `urn:service:problem:${kind}`),
      description: 'What went wrong, as a stable URN: branch on this, not on `title` or `detail`.',
    }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String({ description: 'What went wrong in this request, for people.' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'With `invalid-request`: one entry per failing field, e.g. `weekly.monday[0].start`.',
      }),
    ),
  },
  {
    $id: 'Problem',
    description: 'An RFC 9457 problem document; the API description lists when each `type` happens.',
  },
);

/**
 * The value of `Slotwise-Holder` (contract §12), and of the MCP tools' `holderId` that is sent as
 * that header.
 */
export const HolderHeader = Type.String({ pattern: HOLDER_ID_PATTERN });

/** The value of `Idempotency-Key` (src/http/idempotency.ts), and of the MCP `book` tool's `idempotencyKey`. */
export const IdempotencyKeyHeader = Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' });

/** Where a meeting takes place (contract §16): an event type's, and each booking's copy of it. */
export const MeetingLocation = Type.Object(
  {
    type: Type.Unsafe<LocationType>({
      type: 'string',
      enum: [...LOCATION_TYPES],
      description: '`address`, `link` (an online meeting), `phone` or `text` (anything else)',
    }),
    value: Type.String({
      minLength: 1,
      maxLength: MAX_LOCATION_LENGTH,
      description: 'For a `link`, an absolute https URL (else a 400 on `location.value`)',
    }),
  },
  { $id: 'Location', additionalProperties: false },
);
