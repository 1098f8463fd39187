import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import {
  PostCreateRequest,
  PostPreviewRequest,
  PostRef,
  PostScheduleRequest,
  SiteCreateRequest,
  SiteUpdateRequest,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import {
  authenticateRequest,
  currentUser,
  requireAdmin,
  requireUser,
} from '../http/authenticate.ts';
import { clientGone } from '../http/client-gone.ts';
import { jsonErrorBodies } from '../http/error-handler.ts';
import { sendFile } from '../http/file-reply.ts';
import { servedSiteCsp, servedSitePrefix } from '../http/site-csp.ts';
import { tokenFromRequest } from '../http/token-source.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { SiteError } from '../services/sites.service.ts';

const NameParams = z.object({ name: z.string() });
const PreviewParams = z.object({ name: z.string(), id: z.string(), '*': z.string() });
const ListQuery = z.object({ all: z.optional(z.string()) });
const PathQuery = z.object({ path: z.string() });

/**
 * The static-site area's errors are JSON `{ message, code }` (docs/api.md), so the Sites screen can
 * tell `slug_taken` from `site_exists` (a SiteError's code); the one error handler writes them.
 */
const siteErrors = jsonErrorBodies((error) =>
  error instanceof SiteError ? error.siteCode : undefined,
);

/** /api/sites…: sites, posts, previews, publishing and scheduling (docs/sites.md). */
export async function sitesRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const sites = services.sites;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRoute', siteErrors);
  const user = requireUser(services.sessions);
  const admin = requireAdmin(services.sessions);

  app.get('/sites', { preHandler: user, schema: { querystring: ListQuery } }, async (request) => {
    if (request.query.all === '1') return sites.listAll(currentUser(request));
    return sites.listFor(currentUser(request));
  });
  app.post('/sites', { preHandler: admin, schema: { body: SiteCreateRequest } }, (request, reply) =>
    sites.create(request.body).then((site) => reply.code(201).send(site)),
  );
  app.put(
    '/sites/:name',
    { preHandler: admin, schema: { params: NameParams, body: SiteUpdateRequest } },
    (request) => sites.update(request.params.name, request.body),
  );
  app.delete(
    '/sites/:name',
    { preHandler: admin, schema: { params: NameParams } },
    async (request, reply) => {
      await sites.remove(request.params.name);
      return reply.code(204).send();
    },
  );

  app.get('/sites/:name/posts', { preHandler: user, schema: { params: NameParams } }, (request) =>
    sites.posts(currentUser(request), request.params.name),
  );
  app.get(
    '/sites/:name/archetypes',
    { preHandler: user, schema: { params: NameParams } },
    (request) => sites.archetypes(currentUser(request), request.params.name),
  );
  app.post(
    '/sites/:name/posts',
    { preHandler: user, schema: { params: NameParams, body: PostCreateRequest } },
    async (request, reply) => {
      const post = await sites.createPost(currentUser(request), request.params.name, request.body);
      return reply.code(201).send(post);
    },
  );
  app.post(
    '/sites/:name/preview',
    { preHandler: user, schema: { params: NameParams, body: PostPreviewRequest } },
    (request) => sites.preview(currentUser(request), request.params.name, request.body),
  );
  // A preview's files are reached by its ticket, the random id in the path: the page is sandboxed
  // (an opaque origin), so its links, stylesheets and images carry neither header, query token nor
  // cookie. A token that comes along (the `auth` query of the first page) must be the owner's.
  app.get(
    '/sites/:name/preview/:id/*',
    {
      preHandler: async (request, reply) => {
        if (tokenFromRequest(request, { queryToken: true }) !== undefined) {
          await authenticateRequest(services.sessions, request, reply, { queryToken: true });
        }
      },
      exposeHeadRoute: false,
      schema: { params: PreviewParams },
    },
    async (request, reply) => {
      const { name, id } = request.params;
      const file = await sites.previewFile(
        request.user ?? undefined,
        name,
        id,
        request.params['*'],
      );
      const prefix = servedSitePrefix(
        request,
        `${runtime.ctx.config.baseURL}/api/sites/${name}/preview/${id}/`,
      );
      return sendFile(request, reply, file, clientGone(reply), servedSiteCsp(prefix));
    },
  );
  app.post(
    '/sites/:name/publish',
    { preHandler: user, schema: { params: NameParams, body: PostRef } },
    (request) => sites.publish(currentUser(request), request.params.name, request.body.path),
  );
  app.post(
    '/sites/:name/unpublish',
    { preHandler: user, schema: { params: NameParams, body: PostRef } },
    (request) => sites.unpublish(currentUser(request), request.params.name, request.body.path),
  );
  app.post(
    '/sites/:name/schedule',
    { preHandler: user, schema: { params: NameParams, body: PostScheduleRequest } },
    (request) => sites.schedule(currentUser(request), request.params.name, request.body),
  );
  app.delete(
    '/sites/:name/schedule',
    { preHandler: user, schema: { params: NameParams, querystring: PathQuery } },
    (request) =>
      sites.cancelSchedule(currentUser(request), request.params.name, request.query.path),
  );
  app.post('/sites/:name/build', { preHandler: user, schema: { params: NameParams } }, (request) =>
    sites.build(currentUser(request), request.params.name),
  );
}
