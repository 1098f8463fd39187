import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { Runtime } from '../runtime.ts';
import { clientGone } from '../http/client-gone.ts';
import { sendFile } from '../http/file-reply.ts';
import { servedSiteCsp, servedSitePrefix } from '../http/site-csp.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';

const ServeParams = z.object({ name: z.string(), '*': z.string() });

/**
 * `/sites/<name>/…`: a site's output folder, read-only and without sign-in, when its
 * administrator turned serving on (docs/sites.md). Files carry a served site's policy (a sandbox
 * with an opaque origin that loads the site's own files, http/site-csp.ts) and nosniff; a folder
 * answers with its index.html. The web app's own screen lives at
 * `/publishing/…`, so this prefix never shadows it.
 */
export async function siteServeRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const sites = runtime.services.sites;
  app.get('/sites/:name', async (request, reply) =>
    reply.redirect(`${runtime.ctx.config.baseURL}${request.url.split('?')[0]}/`, 301),
  );
  app.get(
    '/sites/:name/*',
    { exposeHeadRoute: false, schema: { params: ServeParams } },
    async (request, reply) => {
      const { name } = request.params;
      const file = await sites.publicFile(name, request.params['*']);
      const prefix = servedSitePrefix(request, `${runtime.ctx.config.baseURL}/sites/${name}/`);
      return sendFile(request, reply, file, clientGone(reply), servedSiteCsp(prefix));
    },
  );
}
