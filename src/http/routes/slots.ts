import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../app/context.js';
import { listSlots } from '../../app/slots.js';
import { callerOf } from '../auth.js';
import { SlotsQuery, SlotsResponse } from '../schemas.js';

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
        // An answer can hold ~18,000 slots whose values are all ISO timestamps (nothing to escape):
        // concatenating them is several times cheaper than a general serializer walking the schema.
        serializerCompiler: () => (payload) => slotsJson(payload as { data: Array<{ start: string; end: string }> }),
      },
      async (request) => ({ data: await listSlots(context, callerOf(request), request.query) }),
    );
  };

function slotsJson({ data }: { data: Array<{ start: string; end: string }> }): string {
  let json = '{"data":[';
  for (let i = 0; i < data.length; i++) {
    const slot = data[i]!;
    json += `${i === 0 ? '' : ','}{"start":"${slot.start}","end":"${slot.end}"}`;
  }
  return `${json}]}`;
}
