import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendArchive, sendFile } from '../http/file-reply.ts';
import { sendStatus } from '../http/reply.ts';
import { RawService } from '../services/raw.service.ts';

interface RawRequest {
  Params: { '*': string };
  Querystring: { files?: string; algo?: string; inline?: string };
}

/** GET /api/raw/{path} (API.md 3.7): file downloads with ranges, folders as archives. */
export async function rawRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new RawService(ctx);
  const guard = requireUser(ctx, { queryToken: true });

  app.get('/raw', async (_request, reply) => reply.redirect(`${ctx.config.baseURL}/api/raw/`, 301));

  app.get<RawRequest>(
    '/raw/*',
    { preHandler: guard, exposeHeadRoute: false },
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
