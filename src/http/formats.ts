/**
 * The names of the custom string formats the schemas use (src/http/schemas/); Ajv checks them
 * with the domain parsers registered in src/http/validation.ts. In a module of their own so that
 * validation.ts can import the shared schemas without an import cycle.
 */
export const INSTANT_FORMAT = 'instant-with-offset';
export const QUERY_INSTANT_FORMAT = 'instant-with-offset-or-epoch-ms';
export const TIME_ZONE_FORMAT = 'iana-time-zone';
