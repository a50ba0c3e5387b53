import type { Scope } from '../domain/api-key.js';
import type { Instant } from '../domain/instant.js';
import type { Zones } from '../domain/zone.js';
import type { KeyCache } from './key-cache.js';
import type { CalendarCache } from './calendars.js';
import type { GuestLinks } from './guest-links.js';
import type { IdGenerator } from './ids.js';
import type { Store } from './ports/store.js';

/**
 * What every use case runs against, built once by the composition root (src/server.ts): the
 * store, the clock (injected so tests can move time), the caches of the process, and settings.
 */
export interface AppContext {
  store: Store;
  now: () => Instant;
  ids: IdGenerator;
  zones: Zones;
  calendars: CalendarCache;
  keys: KeyCache;
  /** Makes and opens the guests' and feeds' capability links (contract §10). */
  links: GuestLinks;
  webhooks: WebhookSettings;
  pages: PageSettings;
  /** Called after a commit that enqueued deliveries, so a worker in this process sends them at once. */
  outboxChanged?: () => void;
}

export interface PageSettings {
  /** Live holds made on one holder's booking pages at once (`PUBLIC_HOLDS_PER_HOLDER`). */
  holdsPerHolder: number;
}

export interface WebhookSettings {
  /** Lets webhooks target loopback, private and other non-public addresses (local development, tests). */
  allowPrivateTargets: boolean;
  /** Webhooks one holder may register: each costs the delivery worker, whoever's it is. */
  limitPerHolder: number;
}

/** The authenticated caller: the key holder whose data a request may touch. */
export interface Caller {
  holderId: string;
  holderName: string;
  /** Where the holder's booking pages live: `/book/{handle}`. */
  holderHandle: string;
  keyId: string;
  scopes: Scope[];
  keyCreatedAt: Instant;
  keyExpiresAt: Instant | null;
}
