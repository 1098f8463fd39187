import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AuditQuery } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { audit } from '../http/audit.ts';
import { requireAdmin } from '../http/authenticate.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

/** /api/audit: the audit log, administrators only (Cabinet addition, docs/audit.md). */
export async function auditRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const log = services.audit;
  const admin = requireAdmin(services.sessions);

  app.get('/audit', { preHandler: admin, schema: { querystring: AuditQuery } }, (request) =>
    log.page(request.query),
  );

  app.get(
    '/audit.csv',
    { preHandler: admin, exposeHeadRoute: false, schema: { querystring: AuditQuery } },
    async (request, reply) => {
      const rows = await log.csv(request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(rows, { objectMode: false }));
    },
  );

  app.get('/audit/settings', { preHandler: admin }, () => log.settings());

  app.put('/audit/settings', { preHandler: admin }, (request) => {
    audit(request, 'settings.update').details.keys = ['audit.retentionDays'];
    return log.saveSettings(request.body);
  });
}
