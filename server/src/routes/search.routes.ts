import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { SearchService } from '../services/search.service.ts';

interface SearchRequest {
  Params: { '*': string };
  Querystring: { query?: string | string[] };
}

/**
 * GET /api/search/<dir>?query=… (API.md section 3.10, docs/search.md): NDJSON lines streamed as
 * they are found; a client that goes away stops the search (the stream is destroyed, which closes
 * the result iterator).
 */
export async function searchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new SearchService(ctx);
  const guard = requireUser(ctx);

  app.all('/search', async (_request, reply) =>
    reply.redirect(`${ctx.config.baseURL}/api/search/`, 301),
  );

  app.get<SearchRequest>('/search/*', { preHandler: guard }, async (request, reply) => {
    const { query } = request.query;
    const results = await service.search(
      currentUser(request),
      request.params['*'],
      (Array.isArray(query) ? query[0] : query) ?? '',
      clientGone(reply),
    );
    return reply
      .type('text/plain; charset=utf-8')
      .send(Readable.from(results, { objectMode: false }));
  });
}
