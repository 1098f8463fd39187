import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { ShareService } from '../services/share.service.ts';

interface Wildcard {
  Params: { '*': string };
}

/** The owner's share routes (API.md section 3b): list, links of a path, create, delete. */
export async function shareRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new ShareService(ctx);
  const guard = requireUser(ctx);

  // Exact `/shares` is matched before the `/share` prefix (API.md section 1).
  app.get('/shares', { preHandler: guard }, async (request) => service.list(currentUser(request)));

  app.get<Wildcard>('/share/*', { preHandler: guard }, async (request) =>
    service.forPath(currentUser(request), request.params['*']),
  );

  app.post<Wildcard>('/share/*', { preHandler: guard }, async (request) =>
    service.create(currentUser(request), request.params['*'], request.body),
  );

  app.delete<Wildcard>('/share/*', { preHandler: guard }, async (request, reply) => {
    await service.remove(currentUser(request), request.params['*'].replace(/^\/+|\/+$/g, ''));
    return sendStatus(reply, 200);
  });
}
