import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { metricsAccess } from '../http/metrics-access.ts';
import { sendStatus } from '../http/reply.ts';

/**
 * GET /metrics in Prometheus text format (docs/metrics.md), with `--metrics` only: from the
 * addresses of `--metrics-allow` (loopback by default) or with `Authorization: Bearer
 * <--metrics-token>`. A user's session opens nothing here. Without `--metrics` the path is a
 * plain 404, as if the route did not exist (the web app's pages are not served there either).
 */
export async function metricsRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { metrics, ctx } = runtime;
  const access = metrics
    ? metricsAccess({
        allow: ctx.config.metricsAllow,
        token: ctx.config.metricsToken,
        proxiesTrusted: ctx.config.trustedProxies.length > 0,
      })
    : null;
  app.get('/metrics', async (request, reply) => {
    if (!metrics || !access) return sendStatus(reply, 404);
    const verdict = access(request);
    if (verdict === 'wrong-token') return sendStatus(reply, 403);
    if (verdict === 'no-credentials') {
      void reply.header('www-authenticate', 'Bearer realm="cabinet metrics"');
      return sendStatus(reply, 401);
    }
    const body = await metrics.metrics();
    return reply
      .header('content-type', metrics.contentType)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
