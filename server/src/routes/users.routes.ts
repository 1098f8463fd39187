import type { FastifyInstance } from 'fastify';
import { UserIdParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireAdmin, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { parseUserId } from '../services/users.service.ts';
import { audit } from '../http/audit.ts';

/** /api/users: list and create for admins; read, update, delete self or admin. */
export async function usersRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const users = services.users;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // Bodies are parsed by the service with the protocol's schemas, after its permission checks:
  // validating them here would answer 400 before the guard's 401 and the service's 403.
  const byId = { preHandler: requireUser(services.sessions), schema: { params: UserIdParams } };
  app.get('/users', { preHandler: requireAdmin(services.sessions) }, async () => users.list());

  app.post('/users', { preHandler: requireAdmin(services.sessions) }, async (request, reply) => {
    const audited = audit(request, 'user.create');
    const id = await users.createFromRequest(currentUser(request), request.body);
    audited.target = `user:${id}`;
    // The SPA path of the new user, without the base URL, as filebrowser clients expect.
    return sendStatus(reply.header('location', `/settings/users/${id}`), 201);
  });

  app.get('/users/:id', byId, async (request) => {
    const id = parseUserId(request.params.id);
    const user = await users.get(currentUser(request), id);
    // Additive (docs/teams.md): the ids of the user's groups.
    return { ...user, groups: await services.teams.groupIdsOf(id) };
  });

  app.put('/users/:id', byId, async (request, reply) => {
    const id = parseUserId(request.params.id);
    const audited = audit(request, 'user.update', `user:${id}`);
    audited.details.fields = await users.updateFromRequest(
      currentUser(request),
      request.sessionId,
      id,
      request.body,
    );
    return sendStatus(reply, 200);
  });

  app.delete('/users/:id', byId, async (request, reply) => {
    const id = parseUserId(request.params.id);
    const audited = audit(request, 'user.delete', `user:${id}`);
    audited.targetName = await services.audit.nameOf(audited.target);
    audited.details.username = await users.deleteFromRequest(
      currentUser(request),
      id,
      request.body,
    );
    return sendStatus(reply, 200);
  });
}
