// The Slotwise API as an openapi-fetch client typed by `./schema.js`, which openapi-typescript
// generated from the API's OpenAPI document (README.md says how it is kept true).
import createFetchClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

/** The API's named schemas, e.g. `Schemas['Booking']`, `Schemas['Problem']`. */
export type Schemas = components['schemas'];

export interface SlotwiseClientOptions {
  /** Where the service answers, e.g. `https://slotwise.example.com` (the paths start with `/api/v1`). */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** With an account key: the holder (`hdr_…`) to act for, sent as `Slotwise-Holder`. */
  holderId?: string;
  /** A `fetch` of your own (tests, proxies); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type PathOf<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;
type InitOf<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;

/**
 * openapi-fetch's method, with the request's options typed by the path alone. openapi-fetch
 * infers them as a type parameter of their own, and an inferred object type takes any extra
 * property: a misspelt query parameter or body field would compile. Here it does not.
 */
type CallOf<M extends Method> = <P extends PathOf<M>>(
  url: P,
  ...init: undefined extends InitOf<P, M> ? [init?: InitOf<P, M>] : [init: InitOf<P, M>]
) => Promise<
  paths[P][M] extends infer Operation extends Record<string, unknown>
    ? FetchResponse<Operation, {}, `${string}/${string}`>
    : never
>;

export interface SlotwiseClient {
  GET: CallOf<'get'>;
  PUT: CallOf<'put'>;
  POST: CallOf<'post'>;
  PATCH: CallOf<'patch'>;
  DELETE: CallOf<'delete'>;
  /** openapi-fetch's middleware (logging, retries). */
  use: Client<paths>['use'];
}

/**
 * A client typed for every operation: `await client.GET('/api/v1/slots', { params: { query: {
 * eventTypeId, from, to } } })` gives `{ data, error, response }`, `error` being the problem document.
 */
export function createClient(options: SlotwiseClientOptions): SlotwiseClient {
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
  if (options.holderId !== undefined) headers['slotwise-holder'] = options.holderId;
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // The same functions: only their parameter types are narrower (see `CallOf`).
  return client as unknown as SlotwiseClient;
}
