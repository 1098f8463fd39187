import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { endOtherSessions, endSession, listSessions } from '../services/sessions.service.ts';
import { parseUserId } from '../services/users.service.ts';

interface SessionParams {
  id: string;
  sid: string;
}

/** /api/users/{id}/sessions (docs/api.md): list and end a user's sessions; self or admin. */
export async function sessionsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { id: string } }>(
    '/users/:id/sessions',
    { preHandler: requireUser(ctx) },
    async (request) =>
      listSessions(ctx, currentUser(request), request.sessionId, parseUserId(request.params.id)),
  );

  app.delete<{ Params: { id: string } }>(
    '/users/:id/sessions',
    { preHandler: requireUser(ctx) },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      await endOtherSessions(ctx, currentUser(request), request.sessionId, id);
      return sendStatus(reply, 200);
    },
  );

  app.delete<{ Params: SessionParams }>(
    '/users/:id/sessions/:sid',
    { preHandler: requireUser(ctx) },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      await endSession(ctx, currentUser(request), id, request.params.sid);
      return sendStatus(reply, 200);
    },
  );
}
