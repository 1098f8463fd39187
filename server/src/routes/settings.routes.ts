import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { requireAdmin } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { audit } from '../http/audit.ts';

/** GET and PUT /api/settings, administrators only. */
export async function settingsRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  app.get('/settings', { preHandler: requireAdmin(services.sessions) }, async () =>
    services.settings.get(),
  );
  app.put('/settings', { preHandler: requireAdmin(services.sessions) }, async (request, reply) => {
    const audited = audit(request, 'settings.update');
    audited.details.keys = await services.settings.replace(request.body);
    return sendStatus(reply, 200);
  });
}
