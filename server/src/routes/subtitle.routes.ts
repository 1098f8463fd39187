import type { FastifyInstance } from 'fastify';
import { InlineQuery, PathParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { DOWNLOAD_CSP } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/** GET /api/subtitle/{path}: subtitles as WebVTT for <track>. */
export async function subtitleRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.subtitles;

  app.get(
    '/subtitle/*',
    {
      preHandler: requireUser(services.sessions, { queryToken: true }),
      exposeHeadRoute: false,
      schema: { params: PathParams, querystring: InlineQuery },
    },
    async (request, reply) => {
      const result = await service.subtitle(
        currentUser(request),
        request.params['*'],
        request.query.inline,
      );
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      return reply
        .header('content-type', 'text/vtt; charset=utf-8')
        .header('content-disposition', result.disposition)
        .header('content-security-policy', DOWNLOAD_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private')
        .send(result.stream);
    },
  );
}
