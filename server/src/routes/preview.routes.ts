import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import { isPreviewSize, PreviewService } from '../services/preview.service.ts';

interface PreviewRequest {
  Params: { size: string; '*': string };
  Querystring: { inline?: string };
}

/** GET /api/preview/{thumb|big}/{path} (API.md 3.8): resized images, cached on disk. */
export async function previewRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new PreviewService(ctx);
  app.addHook('onClose', async () => service.close());

  app.get<PreviewRequest>(
    '/preview/:size/*',
    { preHandler: requireUser(ctx, { queryToken: true }), exposeHeadRoute: false },
    async (request, reply) => {
      const { size } = request.params;
      if (!isPreviewSize(size)) throw errors.badRequest(`unknown preview size: ${size}`);
      const signal = clientGone(reply);
      const result = await service.preview(
        currentUser(request),
        size,
        request.params['*'],
        request.query.inline === 'true',
        signal,
      );
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      return sendFile(request, reply, result.file, signal);
    },
  );
}
