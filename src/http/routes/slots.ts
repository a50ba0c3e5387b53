import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app/context.js';
import { listSlotsFor, type SlotList } from '../../app/slots.js';
import { formatUtc, formatWithOffset, type Instant } from '../../domain/instant.js';
import { principalOf } from '../auth.js';
import type { RenderedTracks } from '../rendered-tracks.js';
import { SlotsQuery, SlotsResponse } from '../schemas/index.js';
import { slotsAnswer, type SlotWriter } from '../slots-body.js';

export const slotRoutes =
  (context: AppContext, slots: { writer: SlotWriter; renderedTracks: RenderedTracks }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/slots',
      {
        schema: {
          operationId: 'listSlots',
          summary: 'List bookable slots',
          description:
            "Every bookable start of the event type in `[from, to)` (at most 62 days), ascending: on the availability grid, after the minimum notice, inside the booking window, under the daily cap, and clear of other bookings and their buffers. With `timeZone`, `start` and `end` carry that zone's offset; without, they are UTC. In account scope (an account key without `Slotwise-Holder`), the slots of the event type's holder, or of a team event type of the account (contract §14: each host's own schedule, bookings and holds of every event type, and busy time; collective: every host free; round robin: every fixed host and at least one other, or with `hostId` that one). A host reads the slots of the team event types it hosts.",
          querystring: SlotsQuery,
          response: { 200: SlotsResponse },
        },
      },
      async (request, reply) => {
        const list = await listSlotsFor(context, principalOf(request), request.query, request.calendarVersion);
        // A seated type's slots say how many seats each has left: few enough to go through the schema.
        if (list.seatsLeft) return { data: seatedSlots(list, list.seatsLeft) };
        // The schema's JSON, already written as bytes (see SlotWriter); the schema above still
        // documents the answer in the OpenAPI document.
        const rendered = list.cached
          ? slots.renderedTracks.get(list.starts, list.durationMs, list.zone)
          : slots.writer.render(list.starts, list.durationMs, list.zone);
        return sendPieces(reply, slotsAnswer(rendered, list.first, list.end));
      },
    );
  };

function seatedSlots(list: SlotList, seatsLeft: (start: Instant) => number) {
  const { zone, durationMs } = list;
  const shown = (instant: Instant) =>
    zone === undefined ? formatUtc(instant) : formatWithOffset(instant, zone.offsetMsAt(instant));
  const data = [];
  for (let i = list.first; i < list.end; i++) {
    const start = list.starts[i]!;
    data.push({ start: shown(start), end: shown(start + durationMs), seatsLeft: seatsLeft(start) });
  }
  return data;
}

/**
 * Writes the answer's pieces straight to the socket, as one system call with the headers: a long
 * answer (up to ~1.2 MB) stays a view of the cached written track, so tens of connections waiting
 * for it share its memory, and a short one is not copied either. Kept by measurement
 * (docs/performance.md, "Hand-written parts"): Fastify's `reply.send` takes one buffer (a copy of
 * the pieces) and runs the send pipeline. What Fastify would add is added here: the headers the
 * hooks set, the length, and `Connection: close` during shutdown (a HEAD answer gets the headers
 * alone, as Node leaves out its body). The response hooks (log line, metrics) still run when the
 * answer is finished; the onSend hooks do not (none applies to a slot query).
 */
function sendPieces(reply: FastifyReply, pieces: Buffer[]): FastifyReply {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  reply.hijack();
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(length);
  if (reply.server.shutdown.closing) headers.connection = 'close';
  const response = reply.raw;
  response.writeHead(200, headers);
  response.cork();
  for (const piece of pieces) response.write(piece);
  response.end();
  return reply;
}
