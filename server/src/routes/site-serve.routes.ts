import type { FastifyInstance, FastifyReply } from 'fastify';
import * as z from 'zod/mini';
import type { Runtime } from '../runtime.ts';
import type { FileToSend } from '../services/file-to-send.ts';
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
      let file: FileToSend;
      try {
        file = await sites.publicFile(name, request.params['*']);
      } catch (error) {
        const title = await sites.unbuiltTitle(name);
        if (title === undefined) throw error;
        return sendUnbuilt(reply, title);
      }
      const prefix = servedSitePrefix(request, `${runtime.ctx.config.baseURL}/sites/${name}/`);
      return sendFile(request, reply, file, clientGone(reply), servedSiteCsp(prefix));
    },
  );
}

/** The page of a served site without output yet: it says why and what to do, with no script. */
function sendUnbuilt(reply: FastifyReply, title: string): FastifyReply {
  const escaped = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return reply
    .code(404)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'")
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escaped}: not built yet</title>` +
        '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.6}</style>' +
        `<h1>${escaped} has not been built yet</h1>` +
        '<p>Nothing is published on this site so far. Publish a post, or press Build on the ' +
        "site's page in Cabinet, and its pages appear here.</p></html>\n",
    );
}
