import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireAdmin, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import {
  createUserFromRequest,
  deleteUserFromRequest,
  getUser,
  listUsers,
  parseUserId,
  updateUserFromRequest,
} from '../services/users.service.ts';

interface IdParams {
  id: string;
}

/** /api/users (API.md section 3c): list and create for admins; read, update, delete self or admin. */
export async function usersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/users', { preHandler: requireAdmin(ctx) }, async () => listUsers(ctx));

  app.post('/users', { preHandler: requireAdmin(ctx) }, async (request, reply) => {
    const id = await createUserFromRequest(ctx, currentUser(request), request.body);
    // The SPA path of the new user, without the base URL, as filebrowser clients expect.
    return sendStatus(reply.header('location', `/settings/users/${id}`), 201);
  });

  app.get<{ Params: IdParams }>('/users/:id', { preHandler: requireUser(ctx) }, async (request) =>
    getUser(ctx, currentUser(request), parseUserId(request.params.id)),
  );

  app.put<{ Params: IdParams }>(
    '/users/:id',
    { preHandler: requireUser(ctx) },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      await updateUserFromRequest(ctx, currentUser(request), request.sessionId, id, request.body);
      return sendStatus(reply, 200);
    },
  );

  app.delete<{ Params: IdParams }>(
    '/users/:id',
    { preHandler: requireUser(ctx) },
    async (request, reply) => {
      const id = parseUserId(request.params.id);
      await deleteUserFromRequest(ctx, currentUser(request), id, request.body);
      return sendStatus(reply, 200);
    },
  );
}
