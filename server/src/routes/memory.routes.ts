import type { FastifyInstance } from 'fastify';
import type { MemoryReport } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { requireAdmin } from '../http/authenticate.ts';

/**
 * GET /api/memory: what this process holds, administrators only (Cabinet addition,
 * docs/benchmarks.md "Memory"). The benchmark divides RSS by the search index's entries and by the
 * listing cache's bytes; with several workers each answers for itself.
 */
export async function memoryRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx, services, listingCache } = runtime;
  app.get('/memory', { preHandler: requireAdmin(services.sessions) }, async (_request, reply) => {
    const usage = process.memoryUsage();
    const table = ctx.search.current;
    return reply.header('cache-control', 'no-store').send({
      process: {
        rss: usage.rss,
        heapTotal: usage.heapTotal,
        heapUsed: usage.heapUsed,
        external: usage.external,
        arrayBuffers: usage.arrayBuffers,
      },
      searchIndex: {
        ready: table !== null,
        entries: table?.live ?? 0,
        bytes: table?.memoryBytes ?? 0,
      },
      listingCache: {
        capacity: listingCache.capacity,
        bytes: listingCache.bytes,
        folders: listingCache.size,
      },
    } satisfies MemoryReport);
  });
}
