import type { FastifyInstance } from 'fastify';
import type { SchemaStatus } from '../app/ports/schema-status.js';
import type { Metrics } from './metrics.js';
import { problem, sendProblem } from './problems.js';

/**
 * Endpoints for the platform, not for integrators (no key, outside /api/v1): liveness, readiness
 * (the store answers and its schema is current) and Prometheus metrics.
 */
export function registerOperations(app: FastifyInstance, schema: SchemaStatus, metrics: Metrics): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      const pending = await schema.pendingMigrations();
      if (pending.length > 0) {
        return sendProblem(reply, problem('unavailable', `Database migrations pending: ${pending.join(', ')}.`));
      }
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return sendProblem(reply, problem('unavailable', 'The database does not answer.'));
    }
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.text();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
