import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app/context.js';
import { listSlots } from '../../app/slots.js';
import { callerOf } from '../auth.js';
import type { RenderedTracks } from '../rendered-tracks.js';
import { SlotsQuery, SlotsResponse } from '../schemas.js';
import { slotsAnswer, type SlotWriter } from '../slots-body.js';

/** Answers at most this long are sent as one buffer; longer ones as a stream of views of the written track. */
const COPIED_ANSWER_BYTES = 64 * 1024;

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
            "Every bookable start of the event type in `[from, to)` (at most 62 days), ascending: on the availability grid, after the minimum notice, inside the booking window, under the daily cap, and clear of other bookings and their buffers. With `timeZone`, `start` and `end` carry that zone's offset; without, they are UTC.",
          querystring: SlotsQuery,
          response: { 200: SlotsResponse },
        },
      },
      async (request, reply) => {
        const list = await listSlots(context, callerOf(request), request.query, request.calendarVersion);
        // The schema's JSON, already written as bytes (see SlotWriter); the schema above still
        // documents the answer in the OpenAPI document.
        const rendered = list.cached
          ? slots.renderedTracks.get(list.starts, list.durationMs, list.zone)
          : slots.writer.render(list.starts, list.durationMs, list.zone);
        const pieces = slotsAnswer(rendered, list.first, list.end);
        let length = 0;
        for (const piece of pieces) length += piece.length;
        reply.type('application/json; charset=utf-8').header('content-length', length);
        // A long answer (up to ~1.2 MB) stays a view of the cached written track, so the
        // connections waiting for it share its memory; a short one is cheaper copied once.
        const body = length <= COPIED_ANSWER_BYTES ? Buffer.concat(pieces, length) : Readable.from(pieces);
        // Bytes and streams are sent as they are, past the schema's serializer: typed as the schema's answer they are.
        return reply.send(body as never);
      },
    );
  };
