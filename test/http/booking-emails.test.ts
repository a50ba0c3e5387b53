// Contract §16 on both stores, against a real SMTP server on 127.0.0.1 (support/smtp-sink.ts),
// messages read back with mailparser and their iTIP parts with ical.js: who is e-mailed when a
// booking is made, moved or cancelled, in whose zone and language; a message retried after a 4xx
// or a lost connection keeps its Message-ID, a 5xx ends it; the booking never waits for SMTP; the
// per-recipient cap; a round-robin host change; hostile text stays text; the booking's log.
import ICAL from 'ical.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeServer } from '../../src/server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { parseMetrics, valueOf } from '../support/metrics.js';
import { SmtpSink, type Received } from '../support/smtp-sink.js';
import { BEFORE_MONDAY, book, createEventType, expectProblem, type BookingBody } from './helpers.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';

interface NotificationBody {
  id: string;
  channel: string;
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const MONDAY_14 = '2026-01-05T14:00:00.000Z';
const FROM = 'Acme Bookings <book@acme.example>';

let h: Harness;
let sink: SmtpSink;

async function harness(options: { smtp?: boolean; perHour?: number } = {}): Promise<Harness> {
  h = await createHarness({
    now: BEFORE_MONDAY,
    ...(options.smtp === false
      ? {}
      : {
          email: {
            smtpUrl: sink.url,
            from: FROM,
            perRecipientPerHour: options.perHour ?? 10,
            timeoutMs: 2_000,
          },
        }),
  });
  return h;
}

beforeEach(async () => {
  sink = new SmtpSink();
  await sink.start();
});

afterEach(async () => {
  await h?.close();
  await sink.stop();
});

/** A holder of `account` (by default an account of its own), its key, and (unless null) its e-mail. */
async function holderIn(
  account: string,
  name: string,
  email: string | null = `${name}@acme.example`,
): Promise<{ id: string; key: string }> {
  const made = await createApiKey(h.context, {
    accountName: account,
    holderName: name,
    scopes: ['*'],
    expiresAt: null,
  });
  const id = made.key.holderId!;
  if (email !== null) {
    const accountKey = await createApiKey(h.context, {
      accountName: account,
      holderName: null,
      scopes: ['*'],
      expiresAt: null,
    });
    const res = await h.request({
      method: 'PATCH',
      url: `/api/v1/holders/${id}`,
      token: accountKey.token,
      json: { email },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { id, key: made.token };
}

async function holder(name: string, email: string | null = `${name}@acme.example`): Promise<string> {
  return (await holderIn(name, name, email)).key;
}

async function notifications(token: string, bookingId: string): Promise<NotificationBody[]> {
  const res = await h.request({ method: 'GET', url: `/api/v1/bookings/${bookingId}/notifications`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: NotificationBody[] }>().data;
}

/** `slotwise_email_attempts_total` by outcome, and `slotwise_email_queue_depth`, as /metrics tells them. */
async function emailMetrics() {
  const res = await h.request({ method: 'GET', url: '/metrics' });
  const samples = parseMetrics(res.body);
  const attempts = (outcome: string) => valueOf(samples, 'slotwise_email_attempts_total', { outcome }) ?? 0;
  return {
    sent: attempts('sent'),
    retrying: attempts('retrying'),
    failed: attempts('failed'),
    pending: valueOf(samples, 'slotwise_email_queue_depth'),
  };
}

async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not reached in ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function received(count: number): Promise<Received[]> {
  return eventually(
    () => sink.received,
    (all) => all.length >= count,
  );
}

/** The iTIP part: its METHOD, the MIME part's `method`, and the event as ical.js reads it. */
function itip(message: Received) {
  const mime = /^Content-Type: text\/calendar; charset=utf-8; method=([A-Z]+)/m.exec(message.raw)?.[1];
  const part = message.mail.attachments.find((attachment) => attachment.contentType === 'text/calendar');
  expect(part, 'a text/calendar part').toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(part!.content.toString('utf8')));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    mime,
    method: String(calendar.getFirstPropertyValue('method')),
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    summary: String(event.getFirstPropertyValue('summary')),
    attendees: event.getAllProperties('attendee').map((attendee) => String(attendee.getFirstValue()).toLowerCase()),
    alarms: event.getAllSubcomponents('valarm').length,
  };
}

describe('booking e-mails (contract §16)', () => {
  it('when SMTP is not configured, then a booking writes no notification and its log is empty', async () => {
    await harness({ smtp: false });
    const ada = await holder('ada');
    const type = await createEventType(h, ada);
    const booking = await book(h, ada, type.id, MONDAY_10);
    expect(await h.database.rows('notifications')).toEqual([]);
    expect(await h.database.rows('email_changes')).toEqual([]);
    expect(await notifications(ada, booking.id)).toEqual([]);
    expect(h.server.emailWorker).toBeUndefined();
  });

  it('when a booking is made, moved and cancelled, then guest and host each get a message per change, in their zone and language, with METHOD equal to the MIME method', async () => {
    await harness();
    const ada = await holder('ada');
    const type = await createEventType(h, ada, {
      title: 'Intro call',
      questions: [{ id: 'topic', label: 'Topic', type: 'text' }],
    });
    h.server.emailWorker!.start();
    const booking = await book(h, ada, type.id, MONDAY_10, {
      guestName: 'Grete',
      guestEmail: 'grete@example.com',
      guestTimeZone: 'America/New_York',
      guestLanguage: 'de',
      answers: { topic: 'Compilers' },
    });
    const [first, second] = await received(2);
    const guestMail = [first!, second!].find((m) => m.to.includes('grete@example.com'))!;
    const hostMail = [first!, second!].find((m) => m.to.includes('ada@acme.example'))!;
    expect(guestMail.mail.subject).toMatch(/^Bestätigt: Intro call/);
    // 10:00 UTC is 5:00 in New York, written in German.
    expect(guestMail.mail.text).toContain('Montag, 5. Januar 2026, 5:00–5:30 (America/New_York)');
    expect(guestMail.mail.text).toContain(booking.manageUrl!.split('?')[0]!);
    expect(hostMail.mail.subject).toMatch(/^Confirmed: Intro call/);
    expect(hostMail.mail.text).toContain('Compilers');
    expect(hostMail.mail.text).not.toContain('/manage/');
    for (const message of [guestMail, hostMail]) {
      expect(message.mail.from?.text).toBe('"Acme Bookings" <book@acme.example>');
      expect(itip(message)).toMatchObject({ mime: 'REQUEST', method: 'REQUEST', start: MONDAY_10 });
    }

    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/reschedule`,
      token: ada,
      json: { start: MONDAY_14 },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const newBooking = moved.json<BookingBody>();
    const afterMove = (await received(4)).slice(2);
    expect(afterMove.map((m) => m.mail.subject?.split(':')[0]).sort()).toEqual(['Moved', 'Verschoben']);
    for (const message of afterMove)
      expect(itip(message)).toMatchObject({ mime: 'REQUEST', method: 'REQUEST', start: MONDAY_14 });

    const cancelled = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${newBooking.id}/cancel`,
      token: ada,
      json: { reason: 'ill' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const afterCancel = (await received(6)).slice(4);
    expect(afterCancel.map((m) => m.mail.subject?.split(':')[0]).sort()).toEqual(['Abgesagt', 'Cancelled']);
    for (const message of afterCancel) {
      const cancel = itip(message);
      expect(cancel).toMatchObject({ mime: 'CANCEL', method: 'CANCEL', start: MONDAY_14 });
      // The cancellation replaces what the reschedule sent: the same event, a later SEQUENCE.
      const request = itip(afterMove.find((m) => m.to[0] === message.to[0])!);
      expect(cancel.uid).toBe(request.uid);
      expect(cancel.sequence).toBeGreaterThan(request.sequence);
    }

    // Every attempt recorded: the server has a message before the worker records it.
    const firstLog = await eventually(
      () => notifications(ada, booking.id),
      (log) => log.every((n) => n.status !== 'pending'),
    );
    expect(firstLog.map((n) => [n.kind, n.recipient, n.status, n.attempts])).toEqual(
      expect.arrayContaining([
        ['created', 'grete@example.com', 'sent', 1],
        ['created', 'ada@acme.example', 'sent', 1],
      ]),
    );
    expect(firstLog.every((n) => n.channel === 'email' && n.sentAt !== null && n.lastError === null)).toBe(true);
    const secondLog = await notifications(ada, newBooking.id);
    expect(secondLog.map((n) => n.kind).sort()).toEqual(['cancelled', 'cancelled', 'rescheduled', 'rescheduled']);
    // Each message's Message-ID is its notification's.
    const ids = new Set([...firstLog, ...secondLog].map((n) => `<${n.id}@acme.example>`));
    expect(new Set(sink.received.map((m) => m.mail.messageId))).toEqual(ids);
  });

  it('when a guest books on the German booking page, then the guest’s e-mail is German, with the manage link, and the host’s English', async () => {
    await harness();
    const ada = await holder('ada');
    await createEventType(h, ada, { title: 'Intro', slug: 'intro', public: true });
    h.server.emailWorker!.start();
    const page = '/book/ada/intro';
    const browser = new Browser(h);
    const picker = await browser.get(`${page}?date=2026-01-05&tz=Europe/Berlin&lang=de`);
    const picked = await browser.post(`${page}/hold`, timeForms(picker.body).get(MONDAY_10)!);
    const form = await browser.get(String(picked.headers.location));
    const made = await browser.post(`${page}/book`, {
      ...hiddenFields(form.body),
      name: 'Grete',
      email: 'grete@example.com',
    });
    expect(made.statusCode, made.body).toBe(303);
    const messages = await received(2);
    const guest = messages.find((m) => m.to.includes('grete@example.com'))!;
    expect(guest.mail.subject).toMatch(/^Bestätigt: Intro/);
    // 10:00 UTC is 11:00 in Berlin.
    expect(guest.mail.text).toContain('11:00–11:30 (Europe/Berlin)');
    expect(guest.mail.text).toMatch(/\/manage\//);
    const host = messages.find((m) => m.to.includes('ada@acme.example'))!;
    expect(host.mail.subject).toMatch(/^Confirmed: Intro/);
  });

  it('when a booking is refused (its time taken), then its change rolled back and no e-mail is written for it', async () => {
    await harness();
    const ada = await holder('ada');
    const type = await createEventType(h, ada);
    const first = await book(h, ada, type.id, MONDAY_10, { guestEmail: 'first@example.com' });
    const refused = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: ada,
      json: { eventTypeId: type.id, start: MONDAY_10, guestName: 'Second', guestEmail: 'second@example.com' },
    });
    expectProblem(refused, 409, 'slot-unavailable');
    // The booking's path writes the change alone; its messages are written from it after the commit.
    expect((await h.database.rows('email_changes')).map((row) => row.booking_id)).toEqual([first.id]);
    expect(await h.database.rows('notifications')).toEqual([]);
    await notifications(ada, first.id);
    const rows = await h.database.rows('notifications');
    expect(rows.map((row) => row.recipient).sort()).toEqual(['ada@acme.example', 'first@example.com']);
    expect(await h.database.rows('email_changes')).toEqual([]);
  });

  it('when the server answers a message with a 4xx, then it is retried on the schedule with the same Message-ID and sent', async () => {
    await harness();
    const ada = await holder('ada', null);
    const type = await createEventType(h, ada);
    sink.reply.set('grace@example.com', { code: 451, at: 'data' });
    const booking = await book(h, ada, type.id, MONDAY_10, { guestEmail: 'grace@example.com' });
    await notifications(ada, booking.id);
    expect(await emailMetrics()).toEqual({ sent: 0, retrying: 0, failed: 0, pending: 1 });
    h.server.emailWorker!.start();
    const [pending] = await eventually(
      () => notifications(ada, booking.id),
      (log) => log[0]?.attempts === 1,
    );
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(pending!.lastError).toContain('451');
    expect(await emailMetrics()).toEqual({ sent: 0, retrying: 1, failed: 0, pending: 1 });
    sink.reply.clear();
    h.clock.set(h.clock.now() + 10 * 60_000);
    h.server.emailWorker!.wake();
    const [sent] = await eventually(
      () => notifications(ada, booking.id),
      (log) => log[0]?.status === 'sent',
    );
    expect(sent).toMatchObject({ attempts: 2, lastError: null });
    expect(await emailMetrics()).toEqual({ sent: 1, retrying: 1, failed: 0, pending: 0 });
    expect(sink.refused.map((m) => m.mail.messageId)).toEqual([`<${sent!.id}@acme.example>`]);
    expect(sink.received.map((m) => m.mail.messageId)).toEqual([`<${sent!.id}@acme.example>`]);
  });

  it('when the server refuses the recipient with a 5xx, then the message fails at once and is not retried', async () => {
    await harness();
    const ada = await holder('ada', null);
    const type = await createEventType(h, ada);
    sink.reply.set('nobody@example.com', { code: 550, at: 'rcpt' });
    const booking = await book(h, ada, type.id, MONDAY_10, { guestEmail: 'nobody@example.com' });
    h.server.emailWorker!.start();
    const [failed] = await eventually(
      () => notifications(ada, booking.id),
      (log) => log[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ attempts: 1, sentAt: null });
    expect(failed!.lastError).toContain('550');
    expect(await emailMetrics()).toEqual({ sent: 0, retrying: 0, failed: 1, pending: 0 });
    h.clock.set(h.clock.now() + 24 * 3_600_000);
    h.server.emailWorker!.wake();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await notifications(ada, booking.id))[0]!.attempts).toBe(1);
  });

  it('when the SMTP server is down, then the booking is made at once and its message is sent once the server is back', async () => {
    await harness();
    const ada = await holder('ada', null);
    const type = await createEventType(h, ada);
    await sink.stop();
    h.server.emailWorker!.start();
    const started = performance.now();
    const booking = await book(h, ada, type.id, MONDAY_10, { guestEmail: 'grace@example.com' });
    expect(performance.now() - started).toBeLessThan(1_000);
    const [waiting] = await eventually(
      () => notifications(ada, booking.id),
      (log) => log[0]?.attempts === 1,
    );
    expect(waiting).toMatchObject({ status: 'pending', sentAt: null });
    expect(waiting!.lastError).toBeTruthy();
    await sink.start();
    h.clock.set(h.clock.now() + 10 * 60_000);
    h.server.emailWorker!.wake();
    await received(1);
    expect(sink.received[0]!.mail.messageId).toBe(`<${waiting!.id}@acme.example>`);
  });

  it("when the event type's notifications are off, then nobody is e-mailed; with hosts off, only the guest", async () => {
    await harness();
    const ada = await holder('ada');
    const silent = await createEventType(h, ada, { title: 'Silent', notifications: { guest: false, hosts: false } });
    expect(silent).toMatchObject({ notifications: { guest: false, hosts: false } });
    const quiet = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${silent.id}`,
      token: ada,
      json: { notifications: { guest: true } },
    });
    expect(quiet.json()).toMatchObject({ notifications: { guest: true, hosts: false } });
    const loud = await createEventType(h, ada, { title: 'Loud' });
    expect(loud).toMatchObject({ notifications: { guest: true, hosts: true } });

    const off = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${loud.id}`,
      token: ada,
      json: { notifications: { guest: false, hosts: false } },
    });
    expect(off.statusCode).toBe(200);
    const none = await book(h, ada, loud.id, MONDAY_10);
    expect(await notifications(ada, none.id)).toEqual([]);
    const guestOnly = await book(h, ada, silent.id, MONDAY_14);
    expect((await notifications(ada, guestOnly.id)).map((n) => n.recipient)).toEqual(['ada@example.com']);
    const bad = await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${loud.id}`,
      token: ada,
      json: { notifications: { guest: 'yes' } },
    });
    expectProblem(bad, 400, 'invalid-request');
  });

  it('when an address had EMAIL_PER_RECIPIENT_PER_HOUR messages in the last hour, then the next is recorded failed and not sent, until the hour has passed', async () => {
    await harness({ perHour: 2 });
    const ada = await holder('ada', null);
    const type = await createEventType(h, ada);
    const made = [];
    for (const [start, email] of [
      ['2026-01-05T09:00:00.000Z', 'grace@example.com'],
      ['2026-01-05T10:00:00.000Z', 'Grace@Example.com'],
      ['2026-01-05T11:00:00.000Z', 'GRACE@example.com'],
    ] as const)
      made.push(await book(h, ada, type.id, start, { guestEmail: email }));
    const [third] = await notifications(ada, made[2]!.id);
    expect(third).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(third!.lastError).toContain('EMAIL_PER_RECIPIENT_PER_HOUR');
    h.server.emailWorker!.start();
    await received(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.received).toHaveLength(2);
    h.clock.set(h.clock.now() + 61 * 60_000);
    const later = await book(h, ada, type.id, '2026-01-05T12:00:00.000Z', { guestEmail: 'grace@example.com' });
    expect((await notifications(ada, later.id))[0]).toMatchObject({ status: 'pending', lastError: null });
  });

  it('when a hostile title, name and answer are sent, then they stay text: no header, no HTML, no iCalendar line of their own', async () => {
    await harness();
    const ada = await holder('ada');
    const type = await createEventType(h, ada, {
      title: '<script>alert(1)</script> & Co',
      questions: [{ id: 'topic', label: 'Topic', type: 'textarea' }],
    });
    h.server.emailWorker!.start();
    await book(h, ada, type.id, MONDAY_10, {
      guestName: 'Eve <img src=x onerror=alert(1)>',
      notes: 'hi\r\nBcc: victim@example.com\r\n\r\n<b>bold</b>',
      answers: { topic: 'x\r\nATTENDEE:mailto:victim@example.com\r\nBEGIN:VALARM' },
    });
    const messages = await received(2);
    for (const message of messages) {
      expect(message.to).toHaveLength(1);
      expect(message.mail.headers.has('bcc')).toBe(false);
      expect(message.mail.html).not.toContain('<script>');
      expect(message.mail.html).not.toContain('<img');
      expect(message.mail.html).toContain('&lt;script>alert(1)&lt;/script> &amp; Co');
      const invitation = itip(message);
      expect(invitation.summary).toContain('<script>alert(1)</script> & Co');
      expect(invitation.attendees).toEqual(['mailto:ada@example.com', 'mailto:ada@acme.example']);
      expect(invitation.alarms).toBe(0);
    }
    const host = messages.find((m) => m.to.includes('ada@acme.example'))!;
    expect(host.mail.text).toContain('<b>bold</b>');
  });
});

describe('reminder e-mails (contract §16)', () => {
  it("when a reminder falls due, then the guest gets a plain reminder in its language and zone, without an iTIP part; none when the event type's guest notifications are off", async () => {
    await harness();
    const ada = await holder('ada');
    const told = await createEventType(h, ada, { title: 'Intro call', reminders: [{ minutesBefore: 60 }] });
    const silent = await createEventType(h, ada, {
      title: 'Silent',
      reminders: [{ minutesBefore: 60 }],
      notifications: { guest: false, hosts: true },
    });
    const booking = await book(h, ada, told.id, MONDAY_10, {
      guestName: 'Grete',
      guestEmail: 'grete@example.com',
      guestTimeZone: 'Europe/Berlin',
      guestLanguage: 'de',
    });
    const quiet = await book(h, ada, silent.id, MONDAY_14, { guestEmail: 'quiet@example.com' });
    h.server.emailWorker!.start();
    await received(3); // the creations: Grete's, and ada's two as host (the silent type's guest gets none)
    // Recorded too: the clock's jump below would otherwise end the lease of one still being recorded.
    for (const made of [booking, quiet])
      await eventually(
        () => notifications(ada, made.id),
        (log) => log.every((n) => n.status === 'sent'),
      );
    const before = sink.received.length;

    // Each booking's reminder is due an hour before it.
    h.clock.set(Date.parse('2026-01-05T09:00:00.000Z'));
    expect(await h.server.reminders.runRound()).toBe(1);
    h.clock.set(Date.parse('2026-01-05T13:00:00.000Z'));
    expect(await h.server.reminders.runRound()).toBe(1);
    h.server.emailWorker!.wake();
    const [reminder] = (await received(before + 1)).slice(before);
    expect(reminder!.to).toEqual(['grete@example.com']);
    expect(reminder!.mail.subject).toMatch(/^Erinnerung: Intro call/);
    // 10:00 UTC is 11:00 in Berlin.
    expect(reminder!.mail.text).toContain('11:00');
    expect(reminder!.mail.text).toContain(booking.manageUrl!.split('?')[0]!);
    expect(reminder!.raw).not.toMatch(/text\/calendar/i);
    // The server has it before the worker records the attempt: waited for (a loaded CI run read it claimed).
    const reminders = await eventually(
      async () => (await notifications(ada, booking.id)).filter((n) => n.kind === 'reminder'),
      (log) => log.every((n) => n.status !== 'pending'),
    );
    expect(reminders).toEqual([
      expect.objectContaining({ channel: 'email', recipient: 'grete@example.com', status: 'sent', attempts: 1 }),
    ]);
    expect((await notifications(ada, quiet.id)).filter((n) => n.kind === 'reminder')).toEqual([]);
    expect(sink.received.length).toBe(before + 1);
  });
});

describe('a message that cannot be written', () => {
  it('when a stored message cannot be composed, then it ends failed at its first attempt, saying why', async () => {
    await harness();
    const ada = await holderIn('ada', 'ada', null);
    const type = await createEventType(h, ada.key, { notifications: { guest: false, hosts: false } });
    const booking = await book(h, ada.key, type.id, MONDAY_10);
    await h.store.transaction((tx) =>
      tx.notifications.insert([
        {
          id: 'ntf_broken',
          bookingId: booking.id,
          accountId: 'acc_any',
          holderId: ada.id,
          channel: 'email',
          kind: 'created',
          recipient: 'grace@example.com',
          message: '{"kind":',
          status: 'pending',
          lastError: null,
          dueAt: h.clock.now(),
          createdAt: h.clock.now(),
        },
      ]),
    );
    h.server.emailWorker!.start();
    const [broken] = await eventually(
      () => notifications(ada.key, booking.id),
      (log) => log[0]?.status === 'failed',
    );
    expect(broken).toMatchObject({ id: 'ntf_broken', attempts: 1 });
    expect(broken!.lastError).toMatch(/^could not compose the message/);
    expect(sink.received).toEqual([]);
  });
});

describe('several workers (contract §16: at least once, not twice)', () => {
  it('when two servers over one database send the same queue, then each message is sent once', async () => {
    await harness();
    const ada = await holder('ada', null);
    const type = await createEventType(h, ada);
    const second = await composeServer(h.storage, h.settings);
    try {
      for (let hour = 9; hour < 17; hour++)
        await book(h, ada, type.id, `2026-01-05T${String(hour).padStart(2, '0')}:00:00.000Z`, {
          guestEmail: `guest${hour}@example.com`,
        });
      h.server.emailWorker!.start();
      second.emailWorker!.start();
      await received(8);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sink.received.map((m) => m.to[0]).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `guest${i + 9}@example.com`).sort(),
      );
    } finally {
      await second.close();
    }
  });
});

describe('round robin (contract §14, §16)', () => {
  it('when a reschedule moves a booking to another host, then the old host is told as of a cancellation and the new one as of a creation', async () => {
    await harness();
    const account = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['*'],
      expiresAt: null,
    });
    const hosts: Record<string, { id: string; key: string }> = {};
    for (const name of ['ann', 'ben']) hosts[name] = await holderIn('acme', name);
    const type = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: account.token,
      json: {
        title: 'Team call',
        durationMinutes: 30,
        assignment: 'round-robin',
        hosts: [{ holderId: hosts.ann!.id }, { holderId: hosts.ben!.id }],
      },
    });
    expect(type.statusCode, type.body).toBe(201);
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: account.token,
      json: {
        eventTypeId: type.json<{ id: string }>().id,
        start: MONDAY_10,
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
        hostId: hosts.ann!.id,
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    h.server.emailWorker!.start();
    await received(2);
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${made.json<BookingBody>().id}/reschedule`,
      token: account.token,
      json: { start: MONDAY_14, hostId: hosts.ben!.id },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const after = (await received(5)).slice(2);
    const to = (address: string) => after.find((m) => m.to.includes(address))!;
    expect(itip(to('ann@acme.example'))).toMatchObject({ method: 'CANCEL', mime: 'CANCEL', start: MONDAY_10 });
    expect(to('ann@acme.example').mail.subject).toMatch(/^Cancelled/);
    expect(itip(to('ben@acme.example'))).toMatchObject({ method: 'REQUEST', start: MONDAY_14 });
    expect(to('ben@acme.example').mail.subject).toMatch(/^Confirmed/);
    expect(itip(to('grace@example.com'))).toMatchObject({ method: 'REQUEST', start: MONDAY_14 });
    expect(to('grace@example.com').mail.subject).toMatch(/^Moved/);
    const log = await notifications(account.token, moved.json<BookingBody>().id);
    expect(log.map((n) => [n.kind, n.recipient]).sort()).toEqual([
      ['cancelled', 'ann@acme.example'],
      ['created', 'ben@acme.example'],
      ['rescheduled', 'grace@example.com'],
    ]);
    // A host sees the team booking's log, as it sees the booking.
    expect(await notifications(hosts.ben!.key, moved.json<BookingBody>().id)).toHaveLength(3);
  });
});

describe('GET /bookings/:id/notifications', () => {
  it("when another account's key asks for a booking's notifications, then it is 404, as the booking is", async () => {
    await harness();
    const ada = await holder('ada');
    const eve = await holder('eve');
    const type = await createEventType(h, ada);
    const booking = await book(h, ada, type.id, MONDAY_10);
    expect(await notifications(ada, booking.id)).toHaveLength(2);
    const res = await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}/notifications`, token: eve });
    expectProblem(res, 404, 'not-found');
    const unknown = await h.request({ method: 'GET', url: '/api/v1/bookings/bkg_nope/notifications', token: ada });
    expectProblem(unknown, 404, 'not-found');
  });
});
