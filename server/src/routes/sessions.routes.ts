import type { FastifyInstance } from 'fastify';
import { SessionParams, UserIdParams } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { endOtherSessions, endSession, listSessions } from '../services/sessions.service.ts';
import { parseUserId } from '../services/users.service.ts';

/** /api/users/{id}/sessions (docs/api.md): list and end a user's sessions; self or admin. */
export async function sessionsRoutes(scope: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const byUser = { preHandler: requireUser(ctx), schema: { params: UserIdParams } };
  app.get('/users/:id/sessions', byUser, async (request) =>
    listSessions(ctx, currentUser(request), request.sessionId, parseUserId(request.params.id)),
  );

  app.delete('/users/:id/sessions', byUser, async (request, reply) => {
    const id = parseUserId(request.params.id);
    await endOtherSessions(ctx, currentUser(request), request.sessionId, id);
    return sendStatus(reply, 200);
  });

  app.delete(
    '/users/:id/sessions/:sid',
    { preHandler: requireUser(ctx), schema: { params: SessionParams } },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      await endSession(ctx, currentUser(request), id, request.params.sid);
      return sendStatus(reply, 200);
    },
  );
}
