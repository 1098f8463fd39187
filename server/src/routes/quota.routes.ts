import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';

/**
 * /api/quota (Cabinet addition, docs/quotas.md): the signed-in user's storage use and quota. Not
 * /api/usage, which filebrowser clients use for a folder's disk usage.
 */
export async function quotaRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  app.get('/quota', { preHandler: requireUser(services.sessions) }, async (request) =>
    services.quota.usage(currentUser(request)),
  );
}
