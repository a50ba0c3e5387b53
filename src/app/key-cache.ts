import { createHash } from 'node:crypto';
import { FreshCache } from './fresh-cache.js';
import type { ChangeSignal } from './ports/change-signal.js';
import type {
  ActingHolder,
  ApiKeyReads,
  AuthenticatedKey,
  HolderReads,
  TeamEventTypeReads,
  TeamEventTypeWithHandle,
} from './ports/store.js';

const MAX_KNOWN_KEYS = 10_000;
const MAX_KNOWN_HOLDERS = 50_000;
const MAX_KNOWN_TEAM_EVENT_TYPES = 10_000;
/** Ids known to be no team event type (a holder's own, or none): an id never changes its kind. */
const MAX_KNOWN_OTHERS = 100_000;

/** What the store keeps of a key: its SHA-256, never the key. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Keys as read from the store, by the token itself, which the process holds for the request
 * anyway (hashing it cost more than the rest of the lookup: docs/performance.md, "Hand-written
 * parts"). A key is stale once anything concerning its holder, or for an account key its
 * account, was committed: a revocation, a calendar change. Expiry is checked against the clock
 * on every request all the same.
 */
export class KeyCache extends FreshCache<AuthenticatedKey> {
  constructor(apiKeys: ApiKeyReads, changes: ChangeSignal) {
    super(
      (token) => apiKeys.findByDigest(digestOf(token)),
      (key) => key.holderId ?? key.accountId,
      changes,
      MAX_KNOWN_KEYS,
    );
  }
}

/**
 * The holders account keys act for (`Slotwise-Holder`), by id, with their calendar versions: a
 * warm request acting for a holder reads nothing, as a holder key's does.
 */
export class HolderCache extends FreshCache<ActingHolder> {
  constructor(
    private readonly holders: HolderReads,
    changes: ChangeSignal,
  ) {
    super(
      (id) => holders.acting(id),
      (holder) => holder.id,
      changes,
      MAX_KNOWN_HOLDERS,
    );
  }

  /** Each of the holders (a team type's hosts), those not known read in one statement; undefined for none. */
  findAll(ids: readonly string[]): Promise<Array<ActingHolder | undefined>> {
    return this.findMany(ids, async (unknown) => {
      const read = await this.holders.actingOf(unknown);
      return new Map(read.map((holder) => [holder.id, holder]));
    });
  }
}

/**
 * Team event types with their hosts, by id (contract §14), stale once anything of their account
 * was committed (a team type's change is its account's: migration 0016), so a warm team slot query
 * reads nothing. An id found to be no live team type is remembered as such: a holder's own event
 * type never becomes a team's (ids are random), so asking for one costs no read either.
 */
export class TeamEventTypeCache {
  private readonly teams: FreshCache<TeamEventTypeWithHandle>;
  private readonly others = new Set<string>();

  constructor(teamEventTypes: TeamEventTypeReads, changes: ChangeSignal) {
    this.teams = new FreshCache(
      (id) => teamEventTypes.get(id),
      (team) => team.accountId,
      changes,
      MAX_KNOWN_TEAM_EVENT_TYPES,
    );
  }

  /** The live team event type of that id; undefined for none (whose account it is, the caller checks). */
  async find(id: string): Promise<TeamEventTypeWithHandle | undefined> {
    if (this.others.has(id)) return undefined;
    const team = await this.teams.find(id);
    if (team === undefined) {
      if (this.others.size >= MAX_KNOWN_OTHERS) this.others.clear();
      this.others.add(id);
    }
    return team;
  }

  clear(): void {
    this.teams.clear();
    this.others.clear();
  }
}
