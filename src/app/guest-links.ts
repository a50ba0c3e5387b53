import type { Keyring } from './ports/keyring.js';

/**
 * The guest's pages, as paths under the base URL: built here only. The links below, the pages'
 * routes (their patterns are these paths of `:handle`, `:slug`, `:token`) and the pages' own links
 * (src/http/pages/paths.ts) all come from these.
 */
export const PAGE_PATHS = {
  holder: (handle: string) => `/book/${handle}`,
  eventType: (handle: string, slug: string) => `/book/${handle}/${slug}`,
  /** An account's team event types (contract §14). */
  team: (accountHandle: string) => `/team/${accountHandle}`,
  /** A team event type's booking page, under its account's handle (contract §14). */
  teamEventType: (accountHandle: string, slug: string) => `/team/${accountHandle}/${slug}`,
  manage: (token: string) => `/manage/${token}`,
} as const;

/**
 * The capability links of contract §10, made when shown and never stored (a booking row, an
 * outbox event, a delivery log or an idempotency record holds none of them): each is an id and a
 * MAC of it under a key derived from `SLOTWISE_SECRET` (§8). 256-bit MACs, so a link cannot be
 * guessed, and one made for one purpose (managing, the `.ics` file, the feed) opens nothing else.
 * Rotating `SLOTWISE_SECRET` in keeps old links working while their key stays in the ring.
 */
export class GuestLinks {
  /** `baseUrl`: `PUBLIC_BASE_URL` without a trailing slash (by default the server's own address, known once it listens). */
  constructor(
    private readonly keyring: Keyring,
    private readonly baseUrl: () => string,
    /** Whether the pages are served over https (`PUBLIC_BASE_URL`): their cookies are then `Secure`. */
    readonly https = false,
  ) {}

  /** The path of the base URL ('' or e.g. `/slotwise`): what links within the pages start with. */
  basePath(): string {
    return new URL(this.baseUrl()).pathname.replace(/\/+$/, '');
  }

  bookingPage(handle: string, slug: string): string {
    return `${this.baseUrl()}${PAGE_PATHS.eventType(handle, slug)}`;
  }

  teamBookingPage(accountHandle: string, slug: string): string {
    return `${this.baseUrl()}${PAGE_PATHS.teamEventType(accountHandle, slug)}`;
  }

  /** Where the guest sees the booking and can cancel or reschedule it. */
  manage(bookingId: string): string {
    return `${this.baseUrl()}${PAGE_PATHS.manage(this.bookingToken('manage', bookingId))}`;
  }

  /** The booking as an iCalendar file. */
  ics(bookingId: string): string {
    return `${this.baseUrl()}/ics/${this.bookingToken('ics', bookingId)}.ics`;
  }

  /**
   * The confirmation an embedded booking page shows once the booking is made (the manage page can
   * never be framed): it opens until `until` (epoch ms) and shows the booking, its `.ics` link and
   * the manage link to open outside the frame; it acts on nothing.
   */
  confirmation(bookingId: string, until: number): string {
    const subject = `${bookingId}.${Math.floor(until / 1000)}`;
    return `${subject}.${this.keyring.sign('guest-links', `confirm:${subject}`)}`;
  }

  /** The booking a confirmation token opens at `now`; undefined once it ran out, or for anything else. */
  confirmationOf(token: string, now: number): string | undefined {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^\d{1,12}$/.test(parts[1]!)) return undefined;
    const [bookingId, until, signature] = parts as [string, string, string];
    if (Number(until) * 1000 <= now) return undefined;
    return this.keyring.verify('guest-links', `confirm:${bookingId}.${until}`, signature) ? bookingId : undefined;
  }

  /** The holder's bookings as an iCalendar feed; a link of an older `generation` no longer opens. */
  feed(holderId: string, generation: number): string {
    const subject = `${holderId}.${generation}`;
    return `${this.baseUrl()}/feeds/${subject}.${this.keyring.sign('feed-links', subject)}.ics`;
  }

  /** The booking id a `manage` or `ics` token was made for; undefined for anything else. */
  bookingOf(use: 'manage' | 'ics', token: string): string | undefined {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const bookingId = token.slice(0, dot);
    return this.keyring.verify('guest-links', `${use}:${bookingId}`, token.slice(dot + 1)) ? bookingId : undefined;
  }

  /** The holder and generation a feed token was made for; undefined for anything else. */
  feedOf(token: string): { holderId: string; generation: number } | undefined {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^\d{1,9}$/.test(parts[1]!)) return undefined;
    const [holderId, generation, signature] = parts as [string, string, string];
    if (!this.keyring.verify('feed-links', `${holderId}.${generation}`, signature)) return undefined;
    return { holderId, generation: Number(generation) };
  }

  private bookingToken(use: 'manage' | 'ics', bookingId: string): string {
    return `${bookingId}.${this.keyring.sign('guest-links', `${use}:${bookingId}`)}`;
  }
}
