import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** GET /health for load balancers and container health checks. */
export async function healthRoutes(app: FastifyInstance, _ctx: AppContext): Promise<void> {
  app.all('/health', async (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send('{"status":"OK"}'),
  );
}
