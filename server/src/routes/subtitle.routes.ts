import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { DOWNLOAD_CSP } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import { SubtitleService } from '../services/subtitle.service.ts';

interface SubtitleRequest {
  Params: { '*': string };
  Querystring: { inline?: string };
}

/** GET /api/subtitle/{path} (API.md 3.9): subtitles as WebVTT for <track>. */
export async function subtitleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new SubtitleService(ctx);

  app.get<SubtitleRequest>(
    '/subtitle/*',
    { preHandler: requireUser(ctx, { queryToken: true }), exposeHeadRoute: false },
    async (request, reply) => {
      const result = await service.subtitle(
        currentUser(request),
        request.params['*'],
        request.query.inline === 'true',
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
