import type { FastifyInstance } from 'fastify';
import { PreviewParams, PreviewQuery, PreviewSize } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { errors } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile, sendStream } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/**
 * GET /api/preview/{thumb|big}/{path}: pictures of images, videos, photos, documents and audio,
 * cached on disk; GET /api/preview/pdf/{path}: an office document as PDF; GET
 * /api/preview/info/{path}: a photo's camera and exposure, a video's or song's duration and tags;
 * GET /api/preview/play/{path}?start=: a video remuxed to fragmented MP4 (docs/previews.md).
 */
export async function previewRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.preview;

  app.get(
    '/preview/:size/*',
    {
      preHandler: requireUser(services.sessions, { queryToken: true }),
      exposeHeadRoute: false,
      schema: { params: PreviewParams, querystring: PreviewQuery },
    },
    async (request, reply) => {
      const signal = clientGone(reply);
      const user = currentUser(request);
      const virtual = request.params['*'];
      const start = Number(request.query.start ?? 0);
      if (!Number.isFinite(start) || start < 0) throw errors.badRequest('start must be seconds');
      if (request.params.size === 'play') {
        const remux = await service.play(user, virtual, start, signal);
        if (remux.kind === 'accepted') return sendStatus(reply, 202);
        if (remux.kind === 'unsupported') {
          const { reason, videoCodec, audioCodec } = remux;
          return reply.code(415).send({ reason, videoCodec, audioCodec });
        }
        return sendStream(reply, 'video/mp4', remux.stdout);
      }
      if (request.params.size === 'info') {
        const info = await service.info(user, virtual, signal, {
          start: request.query.start === undefined ? undefined : start,
          priority: request.query.prefetch ? 'low' : 'high',
        });
        if ('kind' in info) return sendStatus(reply, 202);
        return reply.send(info);
      }
      // Checked here, after the session guard: a signed-out client is told 401 first.
      const size = PreviewSize.safeParse(request.params.size);
      if (!size.success && request.params.size !== 'pdf') {
        throw errors.badRequest(`unknown preview size: ${request.params.size}`);
      }
      const result = size.success
        ? await service.preview(
            user,
            size.data,
            virtual,
            request.query.inline,
            signal,
            request.query.prefetch ? 'low' : 'high',
          )
        : await service.pdf(user, virtual, request.query.inline, signal);
      if (result.kind === 'accepted') return sendStatus(reply, 202);
      return sendFile(request, reply, result.file, signal);
    },
  );
}
