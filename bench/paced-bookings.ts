/**
 * The mixed part's writes (run.ts, `--only mixed`): real `POST /api/v1/bookings` of one event type,
 * each on a distinct free start, one every 50 ms. A booking is sent when it is due whether or not
 * earlier ones have answered: a load that waited for slow answers would send fewer while the
 * server is slow, and hide those answers' latency. When the free starts run out, the oldest
 * booking made here is cancelled and its start booked again.
 *
 * A process of its own, started by run.ts with an IPC channel: run.ts's event loop is busy
 * generating the read load, and would delay sending a booking and reading its answer, which would
 * count as the server's latency.
 *
 *   node paced-bookings.js BASE_URL KEY EVENT_TYPE_ID FROM TO   # books free starts in [FROM, TO)
 */
const [base, key, eventTypeId, from, to] = process.argv.slice(2) as [string, string, string, string, string];

const INTERVAL_MS = 50;

/** What run.ts asks. */
export type PacingRequest =
  | { type: 'book'; count: number }
  | { type: 'cancel'; count: number }
  | { type: 'start'; measured: boolean }
  | { type: 'stop' };

/** What it hears back: `ready` once, then one answer per request but `start`. */
export type PacingAnswer =
  { type: 'ready'; freeStarts: number } | { type: 'done' } | { type: 'stopped'; run: PacedRun };

/** From a `start` to its `stop`. */
export interface PacedRun {
  seconds: number;
  bookings: number;
  cancellations: number;
  /** Bookings not made, by status. */
  refusals: Record<string, number>;
  /** Of each booking made, from sending it to its answer; only in a measured run. */
  latenciesMs: number[];
}

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const slots = await fetch(
  `${base}/api/v1/slots?eventTypeId=${eventTypeId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  { headers },
);
if (slots.status !== 200) throw new Error(`slots answered ${slots.status}: ${await slots.text()}`);
const free = ((await slots.json()) as { data: Array<{ start: string }> }).data.map((slot) => slot.start);
/** Bookings made here and not cancelled, oldest first. */
const made: Array<{ id: string; start: string }> = [];

let run: PacedRun = newRun();
let measured = false;

function newRun(): PacedRun {
  return { seconds: 0, bookings: 0, cancellations: 0, refusals: {}, latenciesMs: [] };
}

async function book(): Promise<void> {
  if (free.length === 0) await cancelOldest();
  const start = free.shift()!;
  const sent = performance.now();
  const response = await fetch(`${base}/api/v1/bookings`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ eventTypeId, start, guestName: 'Mixed', guestEmail: 'mixed@example.com' }),
  });
  const body = (await response.json()) as { id: string };
  if (response.status !== 201) {
    run.refusals[response.status] = (run.refusals[response.status] ?? 0) + 1;
    return;
  }
  if (measured) run.latenciesMs.push(performance.now() - sent);
  run.bookings++;
  made.push({ id: body.id, start });
}

async function cancelOldest(): Promise<void> {
  const booking = made.shift();
  if (booking === undefined) throw new Error('no free start left and no booking made here to cancel');
  const response = await fetch(`${base}/api/v1/bookings/${booking.id}/cancel`, { method: 'POST', headers, body: '{}' });
  if (response.status !== 200) throw new Error(`cancel answered ${response.status}: ${await response.text()}`);
  run.cancellations++;
  free.push(booking.start);
}

let pacing: { timer: NodeJS.Timeout; startedAt: number; inFlight: Set<Promise<void>> } | undefined;

function start(): void {
  const startedAt = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  const sendDue = () => {
    // A timer that fires late (the machine is busy) sends what fell due meanwhile: the rate holds.
    for (const due = Math.floor((performance.now() - startedAt) / INTERVAL_MS) + 1; sent < due; sent++) {
      const booking = book().finally(() => inFlight.delete(booking));
      inFlight.add(booking);
    }
  };
  sendDue();
  pacing = { timer: setInterval(sendDue, INTERVAL_MS), startedAt, inFlight };
}

async function stop(): Promise<PacedRun> {
  const { timer, startedAt, inFlight } = pacing!;
  clearInterval(timer);
  pacing = undefined;
  const seconds = (performance.now() - startedAt) / 1000;
  await Promise.all(inFlight);
  const finished = { ...run, seconds };
  run = newRun();
  return finished;
}

const answer = (message: PacingAnswer) => process.send!(message);

process.on('message', async (request: PacingRequest) => {
  // One at a time, outside any run: run.ts counts the statements they cost.
  if (request.type === 'book') {
    for (let i = 0; i < request.count; i++) await book();
    run = newRun();
    answer({ type: 'done' });
  } else if (request.type === 'cancel') {
    for (let i = 0; i < request.count; i++) await cancelOldest();
    run = newRun();
    answer({ type: 'done' });
  } else if (request.type === 'start') {
    measured = request.measured;
    start();
  } else {
    answer({ type: 'stopped', run: await stop() });
  }
});
answer({ type: 'ready', freeStarts: free.length });
