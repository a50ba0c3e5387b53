// The main module of ThreadEmailDelivery's worker thread (thread-email-delivery.ts starts it by
// this file's name): composes each booking e-mail it is sent and sends it over the SMTP
// connections it keeps, and posts back what came of it. Composing (the iTIP part above all) and
// the SMTP conversation cost a millisecond and more of CPU a message: here they never hold up the
// event loop that answers requests and writes bookings.
import { parentPort, workerData } from 'node:worker_threads';
import { DateFormats } from '../domain/date-formats.js';
import type { BookingEmailInput } from './booking-email.js';
import { composeAndSend, type EmailDeliveryResult } from './email-delivery.js';
import { EmailSender, type EmailSenderOptions } from './send-email.js';

export interface EmailThreadData {
  sender: EmailSenderOptions;
  /** The messages' day and time formats kept, by style, language and zone. */
  maxDateFormats: number;
}

export type EmailThreadRequest = { type: 'deliver'; id: number; input: BookingEmailInput } | { type: 'close' };

export interface EmailThreadAnswer {
  id: number;
  result: EmailDeliveryResult;
}

const data = workerData as EmailThreadData;
const sender = new EmailSender(data.sender);
const formats = new DateFormats(data.maxDateFormats);

parentPort!.on('message', (request: EmailThreadRequest) => {
  if (request.type === 'close') {
    sender.close();
    parentPort!.close();
    return;
  }
  void composeAndSend(sender, formats, request.input).then((result) =>
    parentPort!.postMessage({ id: request.id, result } satisfies EmailThreadAnswer),
  );
});
