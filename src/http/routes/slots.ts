import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app/context.js';
import { listSlots } from '../../app/slots.js';
import { callerOf } from '../auth.js';
import { SlotsQuery, SlotsResponse } from '../schemas.js';
import { BufferPool } from '../buffer-pool.js';
import { slotsBody } from '../slots-body.js';

/** Answers above 64 KiB reuse their buffers; a handful covers the answers in flight at once. */
const bodyBuffers = new BufferPool(64 * 1024, 16);

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
        const { starts, durationMs, zone } = await listSlots(context, callerOf(request), request.query);
        // The schema's JSON, already written as bytes (see slotsBody): Fastify sends a Buffer as it
        // is, while the schema above still documents the answer in the OpenAPI document.
        const { body, buffer } = slotsBody(starts, durationMs, zone, (size) => bodyBuffers.take(size));
        // Handed to the operating system in full: the buffer can take the next answer.
        reply.raw.once('finish', () => bodyBuffers.give(buffer));
        return reply
          .type('application/json; charset=utf-8')
          .send(body as unknown as { data: Array<{ start: string; end: string }> });
      },
    );
  };
