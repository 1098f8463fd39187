import type { FastifyInstance } from 'fastify';
import { InlineQuery, PreviewParams, PreviewSize } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/** GET /api/preview/{thumb|big}/{path}: resized images, cached on disk. */
export async function previewRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.preview;

  app.get(
    '/preview/:size/*',
    {
      preHandler: requireUser(services.sessions, { queryToken: true }),
      exposeHeadRoute: false,
      schema: { params: PreviewParams, querystring: InlineQuery },
    },
    async (request, reply) => {
      // Checked here, after the session guard: a signed-out client is told 401 first.
      const size = PreviewSize.safeParse(request.params.size);
      if (!size.success) throw errors.badRequest(`unknown preview size: ${request.params.size}`);
      const signal = clientGone(reply);
      const result = await service.preview(
        currentUser(request),
        size.data,
        request.params['*'],
        request.query.inline,
        signal,
      );
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      return sendFile(request, reply, result.file, signal);
    },
  );
}
