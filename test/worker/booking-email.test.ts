// The booking e-mail as it goes over the wire (contract §16): composed into MIME by nodemailer,
// read back by mailparser (a mail client's view) and its iTIP part by ical.js. Times in the
// recipient's zone and language; REQUEST or CANCEL with METHOD equal to the MIME method; a hostile
// title, name, answer or location stays text in HTML and cannot add headers or iCalendar lines.
import ICAL from 'ical.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { describe, expect, it } from 'vitest';
import { bookingEmail, type BookingEmailInput } from '../../src/worker/booking-email.js';
import { START, emailBooking as booking, emailInput as input } from '../support/booking-emails.js';

async function sent(message: BookingEmailInput): Promise<{ raw: string; mail: ParsedMail }> {
  const raw = await new Promise<Buffer>((resolve, reject) =>
    new MailComposer(bookingEmail(message)).compile().build((error, built) => (error ? reject(error) : resolve(built))),
  );
  return { raw: raw.toString('utf8'), mail: await simpleParser(raw) };
}

/** The iTIP part as ical.js reads it. */
function itip(mail: ParsedMail) {
  const part = mail.attachments.find((attachment) => attachment.contentType === 'text/calendar');
  expect(part, 'a text/calendar part').toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(part!.content.toString('utf8')));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    event,
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    status: String(event.getFirstPropertyValue('status')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    organizer: String(event.getFirstPropertyValue('organizer')),
    attendees: event.getAllProperties('attendee').map((attendee) => String(attendee.getFirstValue()).toLowerCase()),
    location: event.getFirstPropertyValue('location'),
    url: event.getFirstPropertyValue('url'),
    summary: String(event.getFirstPropertyValue('summary')),
  };
}

describe('the booking e-mail', () => {
  it('when a booking is made, then the guest gets multipart/alternative text, HTML and a REQUEST in their zone, with the manage link and the location', async () => {
    const { raw, mail } = await sent(input());
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=REQUEST/m);
    expect(mail.messageId).toBe('<ntf_1@acme.example>');
    expect(mail.subject).toBe('Confirmed: Intro call with Ada Lovelace, Monday, January 5, 2026');
    expect(mail.from?.value).toEqual([{ name: 'Acme', address: 'book@acme.example' }]);
    expect(mail.to).toMatchObject({ value: [{ address: 'grace@example.com', name: 'Grace Hopper' }] });
    // 09:00 UTC is 4:00 AM in New York.
    expect(mail.text).toContain('When: Monday, January 5, 2026, 4:00 AM–4:30 AM (America/New_York)');
    expect(mail.text).toContain('Where: https://meet.example.com/ada');
    expect(mail.text).toContain('https://slotwise.example/manage/bkg_1.token');
    // The guest's own notes and answers are the host's to read.
    expect(mail.text).not.toContain('COBOL');
    expect(mail.html).toContain('href="https://slotwise.example/manage/bkg_1.token"');
    const part = itip(mail);
    expect(part).toMatchObject({
      method: 'REQUEST',
      uid: 'bkg_1@slotwise',
      sequence: 0,
      status: 'CONFIRMED',
      start: '2026-01-05T09:00:00.000Z',
      organizer: 'mailto:ada@example.com',
      attendees: ['mailto:grace@example.com', 'mailto:ada@example.com'],
      location: 'https://meet.example.com/ada',
      url: 'https://meet.example.com/ada',
    });
    expect(part.event.getFirstProperty('dtstart')!.toICALString()).toMatch(/Z$/);
  });

  it('when the guest reads German, then the words and the times are German in their zone', async () => {
    const { mail } = await sent(
      input({
        recipient: { role: 'guest', name: 'Grace', email: 'grace@example.com', zone: 'Europe/Berlin', locale: 'de' },
      }),
    );
    expect(mail.subject).toBe('Bestätigt: Intro call mit Ada Lovelace, Montag, 5. Januar 2026');
    expect(mail.text).toContain('Wann: Montag, 5. Januar 2026, 10:00–10:30 (Europe/Berlin)');
    expect(mail.html).toContain('<html lang="de">');
  });

  it('when a host is told, then it reads the guest’s notes and answers in its own zone, and no manage link', async () => {
    const { mail } = await sent(
      input({
        recipient: { role: 'host', name: 'Ada', email: 'ada@example.com', zone: 'Europe/London', locale: 'en' },
        manageUrl: undefined,
      }),
    );
    expect(mail.text).toContain('You have a new booking.');
    expect(mail.text).toContain('When: Monday, January 5, 2026, 9:00 AM–9:30 AM (Europe/London)');
    expect(mail.text).toContain('Notes: About the compiler');
    expect(mail.text).toContain('topic: COBOL');
    expect(mail.text).not.toContain('/manage/');
  });

  it('when a booking is cancelled, then the iTIP part is a CANCEL (METHOD equal to the MIME method) with a higher SEQUENCE', async () => {
    const { raw, mail } = await sent(
      input({
        kind: 'cancelled',
        booking: booking({ status: 'cancelled', cancelledAt: START - 3_600_000 }),
        sequence: 1,
      }),
    );
    expect(raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=CANCEL/m);
    expect(mail.subject).toMatch(/^Cancelled: /);
    expect(itip(mail)).toMatchObject({ method: 'CANCEL', sequence: 1, status: 'CANCELLED', uid: 'bkg_1@slotwise' });
    expect(mail.text).not.toContain('/manage/');
  });

  it('when a booking is coming up, then the reminder is plain text and HTML, without an iTIP part, in the guest’s words', async () => {
    const { raw, mail } = await sent(
      input({
        kind: 'reminder',
        recipient: { role: 'guest', name: 'Grete', email: 'grete@example.com', zone: 'Europe/Berlin', locale: 'de' },
      }),
    );
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).not.toMatch(/text\/calendar/);
    expect(mail.attachments).toEqual([]);
    expect(mail.subject).toMatch(/^Erinnerung: Intro call/);
    expect(mail.text).toContain('Ihre Buchung steht bald an.');
    expect(mail.text).toContain('https://slotwise.example/manage/bkg_1.token');
  });

  it('when no host has an e-mail, then the organizer is EMAIL_FROM and only the guest is an attendee', async () => {
    const { mail } = await sent(input({ hosts: [{ name: 'Ada', email: null }] }));
    expect(itip(mail)).toMatchObject({
      organizer: 'mailto:book@acme.example',
      attendees: ['mailto:grace@example.com'],
    });
  });

  it('when the title, the guest’s name, an answer and the location are hostile, then they stay text: no markup, no header, no iCalendar line of their own', async () => {
    const hostile = '<script>alert(1)</script>"\r\nBcc: victim@example.com\r\nEND:VEVENT';
    const { raw, mail } = await sent(
      input({
        title: `Intro ${hostile}`,
        booking: booking({
          guestName: `Eve ${hostile}`,
          answers: { topic: hostile },
          location: { type: 'address', value: hostile },
        }),
        recipient: { role: 'host', name: `Eve ${hostile}`, email: 'ada@example.com', zone: 'UTC', locale: 'en' },
      }),
    );
    expect(mail.bcc).toBeUndefined();
    // The body may say anything; the message's own header block gains nothing.
    expect(raw.split('\r\n\r\n')[0]).not.toMatch(/^Bcc:/im);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script>alert(1)&lt;/script>');
    const part = itip(mail);
    expect(part.location).toBe(hostile.replace(/\r\n/g, '\n'));
    expect(part.summary).toContain('<script>alert(1)</script>');
    // One VEVENT with exactly the properties written: no line of the hostile texts became one.
    expect(
      part.event
        .getAllProperties()
        .map((property) => property.name)
        .sort(),
    ).toEqual(
      [
        'attendee',
        'attendee',
        'dtend',
        'dtstamp',
        'dtstart',
        'location',
        'organizer',
        'sequence',
        'status',
        'summary',
        'uid',
      ].sort(),
    );
  });
});
