import type { FastifyInstance } from 'fastify';
import { PathParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { audit } from '../http/audit.ts';

/** The owner's share routes: list, links of a path, create, delete. */
export async function shareRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.shares;
  const guard = requireUser(services.sessions);
  // The body of POST is parsed by the service with ShareCreateRequest, after its permission check.
  const byPath = { preHandler: guard, schema: { params: PathParams } };

  // Exact `/shares` is matched before the `/share` prefix.
  app.get('/shares', { preHandler: guard }, async (request) => service.list(currentUser(request)));

  app.get('/share/*', byPath, async (request) =>
    service.forPath(currentUser(request), request.params['*']),
  );

  app.post('/share/*', byPath, async (request) => {
    const audited = audit(request, 'share.create', `/${request.params['*'].replace(/^\/+/, '')}`);
    const link = await service.create(currentUser(request), request.params['*'], request.body);
    audited.details.hash = link.hash;
    return link;
  });

  app.delete('/share/*', byPath, async (request, reply) => {
    audit(request, 'share.delete', `share:${request.params['*'].replace(/^\/+|\/+$/g, '')}`);
    await service.remove(currentUser(request), request.params['*'].replace(/^\/+|\/+$/g, ''));
    return sendStatus(reply, 200);
  });
}
