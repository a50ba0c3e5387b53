import type { DateFormats } from '../domain/date-formats.js';
import { bookingEmail, type BookingEmailInput } from './booking-email.js';
import type { EmailAttempt, EmailSender } from './send-email.js';

/**
 * What one e-mail came to: an attempt at sending it (`EmailAttempt`), or `unwritable` when it
 * could not be composed (a stored message this build cannot write), which would fail on every
 * attempt.
 */
export type EmailDeliveryResult = EmailAttempt | { kind: 'unwritable'; error: string };

/** Composes booking e-mails and sends them over SMTP: in a worker thread (`ThreadEmailDelivery`). */
export interface EmailDelivery {
  deliver(input: BookingEmailInput): Promise<EmailDeliveryResult>;
  /** Ends the SMTP connections (at shutdown, once nothing is in flight). */
  close(): Promise<void>;
}

/** Composes one e-mail with `formats` and sends it with `sender`: what a delivery does with each. */
export async function composeAndSend(
  sender: Pick<EmailSender, 'send'>,
  formats: DateFormats,
  input: BookingEmailInput,
): Promise<EmailDeliveryResult> {
  let message;
  try {
    message = bookingEmail(input, formats);
  } catch (error) {
    return { kind: 'unwritable', error: String(error) };
  }
  return sender.send(message);
}
