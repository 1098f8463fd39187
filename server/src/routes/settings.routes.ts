import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireAdmin } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { getSettings, replaceSettings } from '../services/settings.service.ts';

/** GET and PUT /api/settings, administrators only. */
export async function settingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/settings', { preHandler: requireAdmin(ctx) }, async () => getSettings(ctx));
  app.put('/settings', { preHandler: requireAdmin(ctx) }, async (request, reply) => {
    await replaceSettings(ctx, request.body);
    return sendStatus(reply, 200);
  });
}
