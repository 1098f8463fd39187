import type { FastifyInstance } from 'fastify';
import { FileJobAnswer, FileJobIdParams, NewFileJob } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/** /api/jobs: the caller's background copy, move and delete jobs (Cabinet addition, docs/jobs.md). */
export async function fileJobsRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const service = runtime.services.fileJobs;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = requireUser(runtime.services.sessions);
  const byId = { preHandler: guard, schema: { params: FileJobIdParams } };

  app.post('/jobs', { preHandler: guard, schema: { body: NewFileJob } }, async (request, reply) => {
    const id = await service.create(currentUser(request), request.body, request.ip);
    return reply.code(202).send({ id });
  });

  app.get('/jobs', { preHandler: guard }, (request) => service.list(currentUser(request)));

  app.get('/jobs/:id', byId, (request) => service.get(currentUser(request), request.params.id));

  app.post('/jobs/:id/cancel', byId, (request) =>
    service.cancel(currentUser(request), request.params.id),
  );

  app.post('/jobs/:id/retry', byId, (request) =>
    service.retry(currentUser(request), request.params.id),
  );

  app.post(
    '/jobs/:id/answer',
    { preHandler: guard, schema: { params: FileJobIdParams, body: FileJobAnswer } },
    (request) => service.answer(currentUser(request), request.params.id, request.body),
  );
}
