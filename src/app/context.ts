import type { Instant } from '../domain/instant.js';
import type { Scope, Store } from '../storage/store.js';

/** What every use case runs against: the store and the clock (injected so tests can move time). */
export interface AppContext {
  store: Store;
  now: () => Instant;
}

/** The authenticated caller: the key holder whose data a request may touch. */
export interface Caller {
  holderId: string;
  keyId: string;
  scopes: Scope[];
}
