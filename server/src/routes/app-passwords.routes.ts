import type { FastifyInstance } from 'fastify';
import { AppPasswordCreate, AppPasswordListQuery, AppPasswordParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { parseUserId } from '../services/users.service.ts';
import { audit } from '../http/audit.ts';

/** /api/app-passwords (docs/api.md, docs/webdav.md): list, create and revoke app passwords. */
export async function appPasswordsRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const appPasswords = services.appPasswords;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = requireUser(services.sessions);

  app.get(
    '/app-passwords',
    { preHandler: guard, schema: { querystring: AppPasswordListQuery } },
    async (request) => {
      const actor = currentUser(request);
      const userId = request.query.user === undefined ? actor.id : parseUserId(request.query.user);
      return appPasswords.list(actor, userId);
    },
  );

  app.post(
    '/app-passwords',
    { preHandler: guard, schema: { body: AppPasswordCreate } },
    async (request, reply) => {
      const audited = audit(request, 'app-password.create');
      const created = await appPasswords.create(currentUser(request), request.body);
      audited.target = `app-password:${created.id}`;
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/app-passwords/:id',
    { preHandler: guard, schema: { params: AppPasswordParams } },
    async (request, reply) => {
      const audited = audit(request, 'app-password.revoke', `app-password:${request.params.id}`);
      audited.targetName = await services.audit.nameOf(audited.target);
      await appPasswords.revoke(currentUser(request), request.params.id);
      return sendStatus(reply, 200);
    },
  );
}
