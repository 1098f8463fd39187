import type { FastifyInstance } from 'fastify';
import { PathParams, RawDownloadQuery } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendArchive, sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/** GET /api/raw/{path}: file downloads with ranges, folders as archives. */
export async function rawRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.raw;
  const guard = requireUser(services.sessions, { queryToken: true });

  app.get('/raw', async (_request, reply) => reply.redirect(`${ctx.config.baseURL}/api/raw/`, 301));

  app.get(
    '/raw/*',
    {
      preHandler: guard,
      exposeHeadRoute: false,
      schema: { params: PathParams, querystring: RawDownloadQuery },
    },
    async (request, reply) => {
      const signal = clientGone(reply);
      const result = await service.download(
        currentUser(request),
        request.params['*'],
        request.query,
        signal,
        request.log,
      );
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      if (result.kind === 'file') return sendFile(request, reply, result.file, signal);
      return sendArchive(reply, result);
    },
  );
}
