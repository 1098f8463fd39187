import type { FastifyInstance } from 'fastify';
import { SessionParams, UserIdParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { parseUserId } from '../services/users.service.ts';
import { audit } from '../http/audit.ts';

/** /api/users/{id}/sessions (docs/api.md): list and end a user's sessions; self or admin. */
export async function sessionsRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const sessions = services.sessions;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const byUser = { preHandler: requireUser(services.sessions), schema: { params: UserIdParams } };
  app.get('/users/:id/sessions', byUser, async (request) =>
    sessions.list(currentUser(request), request.sessionId, parseUserId(request.params.id)),
  );

  app.delete('/users/:id/sessions', byUser, async (request, reply) => {
    const id = parseUserId(request.params.id);
    audit(request, 'session.revoke', `user:${id}`).details.others = true;
    await sessions.endOthers(currentUser(request), request.sessionId, id);
    return sendStatus(reply, 200);
  });

  app.delete(
    '/users/:id/sessions/:sid',
    { preHandler: requireUser(services.sessions), schema: { params: SessionParams } },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      audit(request, 'session.revoke', `user:${id}`);
      await sessions.end(currentUser(request), id, request.params.sid);
      return sendStatus(reply, 200);
    },
  );
}
