import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';

/** GET /health for load balancers and container health checks. */
export async function healthRoutes(app: FastifyInstance, _runtime: Runtime): Promise<void> {
  app.all('/health', async (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send('{"status":"OK"}'),
  );
}
