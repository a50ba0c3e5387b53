import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app/context.js';
import { listSlots } from '../../app/slots.js';
import { callerOf } from '../auth.js';
import { RenderedTracks } from '../rendered-tracks.js';
import { SlotsQuery, SlotsResponse } from '../schemas.js';
import { renderSlots, slotsAnswer } from '../slots-body.js';

/** A worst-case track (18,000 slots in UTC) is ~1.2 MB written; this holds a few dozen of those. */
const renderedTracks = new RenderedTracks(64 * 1024 * 1024);

export const slotRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/slots',
      {
        schema: {
          operationId: 'listSlots',
          summary: 'List bookable slots',
          description:
            "Every bookable start of the event type in `[from, to)` (at most 62 days), ascending: on the availability grid, after the minimum notice, inside the booking window, under the daily cap, and clear of other bookings and their buffers. With `timeZone`, `start` and `end` carry that zone's offset; without, they are UTC.",
          querystring: SlotsQuery,
          response: { 200: SlotsResponse },
        },
      },
      async (request, reply) => {
        const slots = await listSlots(context, callerOf(request), request.query);
        // The schema's JSON, already written as bytes (see renderSlots); the schema above still
        // documents the answer in the OpenAPI document.
        const rendered = slots.cached
          ? renderedTracks.get(slots.starts, slots.durationMs, slots.zone)
          : renderSlots(slots.starts, slots.durationMs, slots.zone);
        return sendPieces(reply, slotsAnswer(rendered, slots.first, slots.end));
      },
    );
  };

/**
 * Writes the answer's pieces straight to the socket, as one system call with the headers: a long
 * answer (up to ~1.2 MB) stays a view of the cached written track, so tens of connections waiting
 * for it share its memory, and a short one is not copied either. Fastify's own sending takes one
 * buffer; what it would add is added here: its headers, the length, and `Connection: close`
 * during shutdown (a HEAD answer gets the headers alone, as Node leaves out its body). The
 * response hooks (log line, metrics) still run when the answer is finished.
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
