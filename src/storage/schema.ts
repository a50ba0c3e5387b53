import type { Generated } from 'kysely';

/**
 * The tables and columns, as Kysely types them (the migrations in `migrations/` create them). Instants are integer epoch milliseconds on
 * every engine; structured values (weekly schedule, overrides, scopes, webhook events) are JSON text.
 */
export interface Database {
  accounts: {
    id: string;
    /** Unique; what `keys create --account` names. */
    name: string;
    /** Unique among accounts (contract §12). */
    handle: string;
    display_name: string | null;
    created_at: number;
    updated_at: number;
  };
  holders: {
    id: string;
    account_id: string;
    /** Unique among the account's live holders. */
    name: string;
    /** Unique among live holders. */
    handle: string;
    display_name: string | null;
    email: string | null;
    feed_generation: Generated<number>;
    created_at: number;
    updated_at: number;
    /** Set when the holder was deleted: its keys and pages stop working, its past bookings stay. */
    deleted_at: number | null;
    /** Bumped (by triggers) in every transaction that changes the holder's event types, schedules or bookings. */
    calendar_version: Generated<number>;
  };
  api_keys: {
    id: string;
    account_id: string;
    /** Null for an account key. */
    holder_id: string | null;
    digest: string;
    scopes: string;
    description: string | null;
    created_at: number;
    expires_at: number | null;
    revoked_at: number | null;
  };
  event_types: {
    id: string;
    /** The account of its holder, or (a team event type) its own. */
    account_id: string;
    /** Null for a team event type, which belongs to its account (contract §14). */
    holder_id: string | null;
    /** `collective` or `round-robin` for a team event type; null for a holder's own. */
    assignment: string | null;
    title: string;
    slug: string;
    description: string | null;
    duration_minutes: number;
    slot_interval_minutes: number | null;
    buffer_before_minutes: number;
    buffer_after_minutes: number;
    minimum_notice_minutes: number;
    booking_window_days: number | null;
    max_bookings_per_day: number | null;
    created_at: number;
    updated_at: number;
    deleted_at: number | null;
    /** 0 or 1: whether it has a public booking page. */
    public: number;
    /** JSON: the questions a booking answers. */
    questions: string;
    /** The holder's schedule it is booked in; null: the default schedule. */
    schedule_id: string | null;
    /** Guests one occurrence takes (contract §15); null: one. */
    seats: number | null;
    /** JSON: where its meetings take place (contract §16); null: not said. */
    location: string | null;
    /** JSON: `[{ "minutesBefore": n }]`, its bookings' reminders (contract §16); `[]`: none. */
    reminders: string;
    /** 0 or 1: whether the guest (`notify_guest`) and the hosts (`notify_hosts`) get e-mails (contract §16). */
    notify_guest: number;
    notify_hosts: number;
  };
  /** The hosts of team event types, each holder once per type, in the order given (`position`). */
  event_type_hosts: {
    event_type_id: string;
    holder_id: string;
    /** Null: the host's default schedule. */
    schedule_id: string | null;
    /** 0 or 1. */
    fixed: number;
    priority: number;
    weight: number;
    position: number;
  };
  schedules: {
    id: string;
    holder_id: string;
    name: string;
    time_zone: string;
    /** JSON: the weekly hours, by weekday. */
    weekly: string;
    /** JSON: the date overrides. */
    overrides: string;
    /** 0 or 1: the holder's default schedule, its availability (one per holder). */
    is_default: number;
    created_at: number;
    updated_at: number;
  };
  bookings: {
    id: string;
    account_id: string;
    /** The holder whose event type it is; null for a team booking (the account's). */
    holder_id: string | null;
    /** JSON: the holders whose time it occupies, fixed when booked. */
    host_ids: string;
    event_type_id: string;
    start_at: number;
    end_at: number;
    occupied_start: number;
    occupied_end: number;
    buffer_before_minutes: number;
    buffer_after_minutes: number;
    status: string;
    guest_name: string;
    guest_email: string;
    guest_time_zone: string | null;
    /** `en` or `de`: the language of the guest's e-mails (contract §16). */
    guest_language: string;
    notes: string | null;
    cancellation_reason: string | null;
    cancelled_at: number | null;
    rescheduled_from_id: string | null;
    rescheduled_to_id: string | null;
    /** The id of the first booking of its chain of reschedules: its appointment (contract §16). */
    appointment_id: string;
    /** How often its appointment was moved before it: 0 for the first booking. */
    appointment_moves: number;
    created_at: number;
    updated_at: number;
    /** Set for a hold (status `held`): it occupies its time until then. */
    expires_at: number | null;
    /** JSON: answers to the event type's questions. */
    answers: string;
    /** JSON: the integrator's string values. */
    metadata: string;
    /** `api` or `page`. */
    source: string;
    /** For a hold made on a booking page: a digest of the browser session that made it. */
    page_session: string | null;
    /** For a hold made on a booking page: a digest of the client (address or IPv6 /64) that made it. */
    page_client: string | null;
    /** JSON: the event type's location when it was made or moved (contract §16); null: none. */
    location: string | null;
  };
  /**
   * The time a booking or hold occupies, one row per host, present exactly while it occupies time
   * (confirmed, or held: a hold's row stays past `expires_at` until something takes its time or
   * retention removes it). PostgreSQL's exclusion constraint keeps a holder's rows apart.
   */
  occupancies: {
    booking_id: string;
    holder_id: string;
    event_type_id: string;
    start_at: number;
    occupied_start: number;
    occupied_end: number;
    expires_at: number | null;
    /**
     * A seat's occurrence (its event type and start), shared by the seats of it; null for what is
     * not seated. PostgreSQL's exclusion constraint lets rows of one occurrence overlap.
     */
    occurrence: string | null;
    /**
     * A seat's number in its occurrence (1 to the event type's seats when it was taken), the same
     * on every host of the seat and unique among the host's rows of the occurrence; null for what
     * is not seated (migration 0025).
     */
    seat: number | null;
  };
  /** The hosts of each team booking (contract §14), fixed when it is booked; a holder's own bookings have none. */
  team_booking_hosts: {
    booking_id: string;
    holder_id: string;
    event_type_id: string;
    start_at: number;
    /** The booking's `created_at`: round robin counts a host's recent bookings by it. */
    created_at: number;
    /** 1 while the booking is confirmed, then 0 (cancelled or moved away): what round robin counts. */
    confirmed: Generated<number>;
  };
  webhooks: {
    id: string;
    account_id: string;
    /** Null for an account webhook, which hears every event of the account. */
    holder_id: string | null;
    url: string;
    events: string;
    description: string | null;
    active: number;
    secret: string;
    created_at: number;
    updated_at: number;
  };
  calendar_sources: {
    id: string;
    holder_id: string;
    /** `ics` or `caldav`. */
    type: string;
    name: string | null;
    /** What the API shows of the address. */
    shown_url: string;
    /** The address and credentials, sealed (see migration 0008). */
    address: string;
    status: string;
    last_synced_at: number | null;
    last_error: string | null;
    failing: number;
    sync_state: string | null;
    busy_digest: string | null;
    /** 1: the holder's bookings are written to this (CalDAV) calendar; at most one per holder (migration 0024). */
    write_bookings: number;
    /** Why the last write-back failed; null when it succeeded. */
    last_write_error: string | null;
    next_sync_at: number;
    lease_until: number | null;
    created_at: number;
    updated_at: number;
  };
  busy_intervals: {
    source_id: string;
    holder_id: string;
    start_at: number;
    end_at: number;
    /** 1 when longer than a day: those are scanned, the others sought by start. */
    spans_days: number;
  };
  /**
   * Booking changes whose e-mails are still to be written (contract §16, migration 0026): one row
   * per change, written in its transaction, removed by the e-mail worker's transaction that writes
   * the change's `notifications`.
   */
  email_changes: {
    /** The order they are written out in. */
    id: Generated<number | string>;
    booking_id: string;
    account_id: string;
    /** The booking's holder; null for a team booking, which is its account's. */
    holder_id: string | null;
    /** `BookingChange`, JSON: the booking (and the one it moved from) as the change left them. */
    change: string;
    created_at: number;
  };
  /**
   * The reminders still to be sent (contract §16): one row per confirmed booking and offset,
   * written with the booking, deleted when it is cancelled or moved and when its reminder is sent.
   */
  booking_reminders: {
    booking_id: string;
    minutes_before: number;
    /** The booking's start less `minutes_before`. */
    due_at: number;
    account_id: string;
    /** The booking's holder; null for a team booking, which is its account's (contract §14). */
    holder_id: string | null;
  };
  webhook_events: {
    id: string;
    account_id: string;
    /** Null for an event of the account itself (a test event of an account webhook). */
    holder_id: string | null;
    type: string;
    payload: string;
    created_at: number;
  };
  webhook_deliveries: {
    id: string;
    event_id: string;
    webhook_id: string;
    status: string;
    attempts: number;
    retry_step: number;
    next_attempt_at: number | null;
    claimed_until: number | null;
    created_at: number;
    updated_at: number;
  };
  /** The notification outbox (contract §16): one message to one recipient about one change of a booking. */
  notifications: {
    id: string;
    booking_id: string;
    /** The booking's account, and its holder (null for a team booking, which is the account's). */
    account_id: string;
    holder_id: string | null;
    /** `email`, or `calendar` (the write-back). */
    channel: string;
    /** `created`, `rescheduled`, `cancelled` or `reminder`. */
    kind: string;
    /** An e-mail address, or a calendar source's id. */
    recipient: string;
    /** JSON: what the message says, as of the change. */
    message: string;
    /** `pending`, `sent` or `failed`. */
    status: string;
    attempts: number;
    /** Failed attempts so far: the next one waits the retry schedule's step of this number. */
    retry_step: number;
    last_error: string | null;
    /** When a pending row is next tried; null once finished. */
    due_at: number | null;
    /** A worker's claim: no other worker tries the row before this. */
    claimed_until: number | null;
    sent_at: number | null;
    created_at: number;
    updated_at: number;
  };
  idempotency_keys: {
    requester: string;
    key: string;
    request_hash: string;
    state: string;
    response_status: number | null;
    response_headers: string | null;
    response_body: string | null;
    created_at: number;
    expires_at: number;
  };
  rate_limit_windows: { requester: string; window_start: number; requests: number };
  webhook_delivery_attempts: {
    delivery_id: string;
    attempt: number;
    started_at: number;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    response_excerpt: string | null;
  };
}

export type Engine = 'sqlite' | 'postgres';
