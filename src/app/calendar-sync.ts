import { createHash } from 'node:crypto';
import type { BusyParse } from '../domain/busy-time.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import { merge, type Interval } from '../domain/intervals.js';
import { openAddress, sealAddress } from './calendar-sources.js';
import type { AppContext, CalendarSourceSettings } from './context.js';
import { defaultSchedule } from './availability.js';
import { transactionWithEvents } from './outbox.js';
import type { FetchOutcome } from './ports/calendar-fetcher.js';
import type { StoredSource, Transaction } from './ports/store.js';
import { calendarSourceView } from './views.js';

/** The least room in CALENDAR_PARSE_QUEUE_MB a read takes: 32 MB holds at most 8,192 waiting parses. */
const MIN_PARSE_ROOM = 4_096;

/** Busy time is kept from a day back (a booking's buffer can reach into it) to the horizon ahead. */
const KEPT_BEFORE_MS = DAY_MS;

/** What one sync did, for the worker's log line (never the address). */
export interface SyncReport {
  sourceId: string;
  /** `superseded`: the source got a new address while it was read; what was read is dropped, and the new one is read next. */
  outcome: 'unchanged' | 'changed' | 'same-busy-time' | 'failed' | 'gone' | 'superseded';
  intervals?: number;
  error?: string;
}

/**
 * Syncs one source that the caller has leased (`claimDue` or `claim`): reads it, turns what it
 * read into busy time, and stores that with the source's status in one transaction, with the
 * `calendar_source.failed`/`recovered` event when the source starts or stops failing. Busy time
 * that did not change writes nothing the slot path sees (contract: a sync of an unchanged source
 * costs slots nothing). A failing source keeps its last good busy time. Releases the lease with
 * the next sync due after the interval.
 */
export async function syncSource(
  context: AppContext,
  holderId: string,
  sourceId: string,
  signal?: AbortSignal,
): Promise<SyncReport> {
  const settings = context.calendarSources;
  const started = context.now();
  let report: SyncReport | undefined;
  try {
    report = await readAndRecord(context, holderId, sourceId, started, signal);
    return report;
  } finally {
    // A recorded outcome released the lease in its own transaction (`record`): one write
    // transaction fewer per sync, each a durable commit. Otherwise (gone, superseded, thrown) here.
    if (report === undefined || report.outcome === 'gone' || report.outcome === 'superseded') {
      const next = report?.outcome === 'superseded' ? context.now() : context.now() + settings.syncIntervalMs;
      await context.store.transaction((tx) => tx.calendarSources.release(sourceId, next), { ownerIds: [holderId] });
    }
  }
}

async function readAndRecord(
  context: AppContext,
  holderId: string,
  sourceId: string,
  started: number,
  signal: AbortSignal | undefined,
): Promise<SyncReport> {
  const settings = context.calendarSources;
  const stored = await context.store.calendarSources.stored(holderId, sourceId);
  if (!stored) return { sourceId, outcome: 'gone' };
  const window = { start: started - KEPT_BEFORE_MS, end: started + settings.horizonDays * DAY_MS };
  const address = openAddress(context, sourceId, stored.sealedAddress);
  if (!address) {
    const error = 'the stored address cannot be read with the current SLOTWISE_SECRET: set it again (PATCH url)';
    return await recordFailure(context, stored, error, undefined);
  }
  // The holder's syncs take the turns of its account, then its own (see FairShare).
  const owner = { accountId: stored.accountId, holderId };
  const limits = context.syncLimits;
  // A turn among the process's fetches, kept until what was read has room to wait for the parser.
  const releaseFetch = await limits.fetches.acquire(owner, 1, signal);
  let fetched: FetchOutcome;
  let releaseRoom: (() => void) | undefined;
  try {
    fetched = await context.calendarFetcher.fetch(address, stored.syncState, window, signal);
    if (fetched.kind === 'changed') {
      // Characters, at most the bytes read: every text is decoded from at least as many bytes. At
      // least MIN_PARSE_ROOM, so the room bounds how many parses can wait, however small.
      const size = Math.max(
        MIN_PARSE_ROOM,
        fetched.calendars.reduce((sum, text) => sum + text.length, 0),
      );
      if (size > limits.parseRoom.capacity) {
        fetched = { kind: 'failed', error: tooLargeToParse(size, limits.parseRoom.capacity) };
      } else {
        releaseRoom = await limits.parseRoom.acquire(owner, size, signal);
      }
    }
  } finally {
    releaseFetch();
  }
  // Sealed again with SLOTWISE_SECRET's newest key at every sync that could open it: one sync
  // interval after a key is added in front, no source needs the old one (docs/api.md, "Secrets").
  const resealed = sealAddress(context, sourceId, address);
  if (fetched.kind === 'failed') return await recordFailure(context, stored, fetched.error, resealed);
  if (fetched.kind === 'unchanged')
    return await recordSuccess(context, stored, fetched.state, null, 'unchanged', resealed);
  let parsed: BusyParse;
  try {
    // Floating times (no zone of their own) are the holder's: its default schedule's zone.
    const zone = (await defaultSchedule(context.store, holderId)).timeZone;
    parsed = await context.busyParser.parse(owner, fetched.calendars, window, zone, {
      maxEvents: settings.maxEvents,
      maxIntervals: settings.maxIntervals,
      maxRecurrenceSteps: settings.maxRecurrenceSteps,
    });
  } finally {
    releaseRoom?.();
  }
  if (!parsed.ok) return await recordFailure(context, stored, parsed.error, resealed);
  const busy = await withoutOwnAppointments(context, holderId, parsed);
  return await recordSuccess(context, stored, fetched.state, busy, 'changed', resealed);
}

/**
 * The busy time a parse found, without the events of appointments the holder hosts (contract §16:
 * a booking that comes back through the host's calendar, written back or accepted as an
 * invitation, is not busy time against itself or its moves); another holder's appointment, of
 * which this one is a guest, still blocks. Decided here, at sync time, against the store, so busy
 * time is stored without them and the slot path and booking decisions read it as before, with no
 * statement more. An event names an appointment only after its booking was made, so no later
 * booking can make a stored interval the holder's own; an appointment stays the holder's when it
 * is moved, cancelled or given to another host.
 */
async function withoutOwnAppointments(
  context: AppContext,
  holderId: string,
  parsed: Extract<BusyParse, { ok: true }>,
): Promise<Interval[]> {
  if (parsed.ofAppointments.length === 0) return parsed.intervals;
  const own = await context.store.appointments.hostedBy(
    holderId,
    parsed.ofAppointments.map((appointment) => appointment.appointmentId),
  );
  const others = parsed.ofAppointments.filter((appointment) => !own.has(appointment.appointmentId));
  if (others.length === 0) return parsed.intervals;
  return merge([...parsed.intervals, ...others.flatMap((appointment) => appointment.intervals)]);
}

function tooLargeToParse(size: number, room: number): string {
  const mb = (count: number) => Number((count / 1_048_576).toFixed(2));
  return `the calendar (${mb(size)} MB) is larger than this server parses at once (${mb(room)} MB)`;
}

/** A name for a busy set: equal sets, equal names. */
function digestOf(busy: readonly Interval[]): string {
  const hash = createHash('sha256');
  for (const interval of busy) hash.update(`${interval.start},${interval.end};`);
  return hash.digest('base64url');
}

async function recordSuccess(
  context: AppContext,
  read: StoredSource,
  syncState: string | null,
  busy: Interval[] | null,
  outcome: 'unchanged' | 'changed',
  resealed: string | undefined,
): Promise<SyncReport> {
  const digest = busy === null ? null : digestOf(busy);
  return record(context, read, async (tx, current, now) => {
    const changed = busy !== null && digest !== current.busyDigest;
    if (changed) {
      await tx.busyTime.replace(current.source.holderId, current.source.id, busy);
      await tx.holders.bumpCalendarVersion(current.source.holderId);
    }
    return {
      stored: {
        source: { ...current.source, status: 'ok', lastSyncedAt: now, lastError: null, updatedAt: now },
        sealedAddress: resealed ?? current.sealedAddress,
        syncState,
        busyDigest: changed ? digest : current.busyDigest,
        failing: false,
      },
      report: {
        sourceId: current.source.id,
        outcome: outcome === 'unchanged' ? outcome : changed ? 'changed' : 'same-busy-time',
        ...(busy ? { intervals: busy.length } : {}),
      },
    };
  });
}

async function recordFailure(
  context: AppContext,
  read: StoredSource,
  error: string,
  resealed: string | undefined,
): Promise<SyncReport> {
  return record(context, read, async (_tx, current, now) => ({
    stored: {
      ...current,
      source: { ...current.source, status: 'error', lastError: error, updatedAt: now },
      sealedAddress: resealed ?? current.sealedAddress,
      failing: true,
    },
    report: { sourceId: current.source.id, outcome: 'failed', error },
  }));
}

/**
 * Records what a sync found in one transaction, with the source's row locked (so busy time and
 * bookings are judged in one order: `DecisionRules.sources`), and releases the lease with the next
 * sync due after the interval, unless the source is gone or got a new address meanwhile. A source that starts failing tells its webhooks once
 * (`calendar_source.failed`), and once more when it stops (`calendar_source.recovered`).
 */
function record(
  context: AppContext,
  read: StoredSource,
  outcome: (
    tx: Transaction,
    current: StoredSource,
    now: Instant,
  ) => Promise<{ stored: StoredSource; report: SyncReport }>,
): Promise<SyncReport> {
  return transactionWithEvents(
    context,
    async (tx, events) => {
      const current = await tx.calendarSources.stored(read.source.holderId, read.source.id);
      if (!current) return { sourceId: read.source.id, outcome: 'gone' };
      if (current.sealedAddress !== read.sealedAddress) return { sourceId: read.source.id, outcome: 'superseded' };
      const now = context.now();
      const { stored, report } = await outcome(tx, current, now);
      await tx.calendarSources.update(stored);
      await tx.calendarSources.release(stored.source.id, now + context.calendarSources.syncIntervalMs);
      if (stored.failing !== current.failing)
        await events.add({
          holderId: stored.source.holderId,
          type: stored.failing ? 'calendar_source.failed' : 'calendar_source.recovered',
          data: { calendarSource: calendarSourceView(stored.source) },
          now,
        });
      return report;
    },
    { ownerIds: [read.source.holderId] },
  );
}

/**
 * `POST /calendar-sources/:id/sync`: syncs now. A call while a sync of the source is under way in
 * this process (the worker's or another call's) joins it; while another instance's sync holds the
 * lease, it waits for that one (up to twice the sync timeout), then reads the source itself.
 * A source is synced this way at most once per MANUAL_SYNC_INTERVAL_MS: sooner, nothing is done and
 * the answer is how many seconds to wait.
 */
export async function syncCalendarSourceNow(
  context: AppContext,
  holderId: string,
  id: string,
): Promise<{ retryAfterSeconds: number } | undefined> {
  const settings = context.calendarSources;
  return context.syncLimits.manual(id, async () => {
    const deadline = Date.now() + settings.timeoutMs * 2;
    for (;;) {
      const now = context.now();
      const leaseUntil = now + syncLeaseMs(settings);
      if (
        await context.store.transaction((tx) => tx.calendarSources.claim(holderId, id, now, leaseUntil), {
          ownerIds: [holderId],
        })
      ) {
        await syncSource(context, holderId, id);
        return;
      }
      if ((await context.store.calendarSources.get(holderId, id)) === undefined) return;
      if (Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

/**
 * How long a sync's lease lasts: longer than the longest sync (its fetch, then its parse after
 * others' in the one parser thread, each within the timeout), so no other instance takes it mid-sync.
 */
export function syncLeaseMs(settings: CalendarSourceSettings): number {
  return settings.timeoutMs * (1 + settings.syncConcurrency) + 5_000;
}
