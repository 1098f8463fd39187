import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { PathParams, SearchQuery } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/**
 * GET /api/search/<dir>?query=… (docs/search.md): NDJSON lines streamed as
 * they are found; a client that goes away stops the search (the stream is destroyed, which closes
 * the result iterator).
 */
export async function searchRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const service = services.search;
  const guard = requireUser(services.sessions);

  app.all('/search', async (_request, reply) =>
    reply.redirect(`${ctx.config.baseURL}/api/search/`, 301),
  );

  const schema = { params: PathParams, querystring: SearchQuery };
  app.get('/search/*', { preHandler: guard, schema }, async (request, reply) => {
    const results = await service.search(
      currentUser(request),
      request.params['*'],
      request.query.query,
      clientGone(reply),
    );
    return reply
      .type('text/plain; charset=utf-8')
      .send(Readable.from(results, { objectMode: false }));
  });
}
