import type { FastifyInstance } from 'fastify';
import {
  RESTORE_CONFLICT,
  TrashIdParams,
  TrashListQuery,
  TrashRawQuery,
  TrashRestoreBody,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { audit } from '../http/audit.ts';

/** /api/trash: the caller's deleted items (Cabinet addition, docs/trash.md). */
export async function trashRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.trash;
  const guard = requireUser(services.sessions);
  const linkGuard = requireUser(services.sessions, { queryToken: true });
  const byId = { preHandler: guard, schema: { params: TrashIdParams } };

  app.get('/trash', { preHandler: guard, schema: { querystring: TrashListQuery } }, (request) =>
    service.list(currentUser(request), {
      userId: request.query.user === undefined ? undefined : Number(request.query.user),
      all: request.query.all !== undefined,
    }),
  );

  app.delete('/trash', { preHandler: guard }, async (request) => {
    const audited = audit(request, 'trash.empty');
    audited.details.removed = await service.empty(currentUser(request), request.ip);
    return { removed: audited.details.removed };
  });

  app.get('/trash/settings', { preHandler: guard }, () => service.settings());

  app.put('/trash/settings', { preHandler: guard }, (request) => {
    audit(request, 'settings.update').details.keys = ['trash'];
    return service.saveSettings(currentUser(request), request.body);
  });

  app.get(
    '/trash/:id/raw',
    {
      preHandler: linkGuard,
      exposeHeadRoute: false,
      schema: { params: TrashIdParams, querystring: TrashRawQuery },
    },
    async (request, reply) => {
      const signal = clientGone(reply);
      const file = await service.rawFile(
        currentUser(request),
        request.params.id,
        request.query.inline,
      );
      if (!file) return sendStatus(reply, 202);
      return sendFile(request, reply, file, signal);
    },
  );

  app.post('/trash/:id/restore', byId, async (request, reply) => {
    // An empty body (no content type) means no choice yet: restore unless the place is taken.
    const audited = audit(request, 'trash.restore', `trash:${request.params.id}`);
    audited.targetName = await services.audit.nameOf(audited.target);
    const body = TrashRestoreBody.safeParse(request.body ?? {});
    if (!body.success) throw errors.badRequest('invalid restore request');
    const outcome = await service.restore(
      currentUser(request),
      request.params.id,
      body.data,
      request.ip,
    );
    if (outcome.kind === 'conflict') {
      // Only a question (replace or keep both?): nothing happened yet, so nothing is recorded;
      // the answer's request is the entry.
      request.audited = null;
      return reply.code(409).send({ code: RESTORE_CONFLICT });
    }
    audited.details.path = outcome.path;
    if (outcome.replaced !== undefined) audited.details.replaced = outcome.replaced;
    return reply.send({ path: outcome.path });
  });

  app.delete('/trash/:id', byId, async (request, reply) => {
    const audited = audit(request, 'trash.delete', `trash:${request.params.id}`);
    audited.targetName = await services.audit.nameOf(audited.target);
    await service.remove(currentUser(request), request.params.id, request.ip);
    return reply.code(204).send();
  });
}
