import type { FastifyInstance } from 'fastify';
import type { HealthReport } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';

/**
 * GET /health (and /api/health) for load balancers and container health checks: `status` as
 * before, and in `details` whether this instance's folder watches can be trusted on each mount the
 * root crosses (paths relative to the root: nothing of the host's layout), how often search is
 * reconciled where they cannot, how other instances' changes reach this one (docs/search.md), and
 * which previews this instance can make (docs/previews.md).
 */
export async function healthRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const answer = async () => {
    const { reconcile, relay } = runtime.tree;
    const untrusted = reconcile.untrusted.length > 0;
    return JSON.stringify({
      status: 'OK',
      details: {
        mounts: runtime.ctx.mounts.reports,
        watchesTrusted: !untrusted,
        reconcileSeconds: untrusted ? reconcile.intervalSeconds : null,
        instanceChanges: relay ? (relay.connected ? 'database' : 'disconnected') : 'host',
        // Which kinds of file get pictures here, by the decoders installed (docs/previews.md).
        previews: runtime.services.preview.capabilities.families,
      },
    } satisfies HealthReport);
  };
  for (const url of ['/health', '/api/health']) {
    app.all(url, async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').send(await answer()),
    );
  }
}
