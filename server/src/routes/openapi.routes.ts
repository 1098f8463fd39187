import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { VERSION } from '../config/version.ts';
import { buildOpenApi } from '../openapi/document.ts';
import { renderDocsPage } from '../openapi/html.ts';

interface Served {
  body: string;
  etag: string;
}

function served(body: string): Served {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * GET /api/openapi.json and its page for people, GET /api/docs (docs/api.md): public and cached.
 * Both are made from the app's route table once, at the first request, when every route has
 * registered; they live as long as this app.
 */
export async function openapiRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const baseURL = runtime.ctx.config.baseURL;
  let made: { json: Served; html: Served } | undefined;
  const make = () => {
    if (made) return made;
    const document = buildOpenApi(app.routeTable, { version: VERSION, baseURL });
    made = {
      json: served(JSON.stringify(document)),
      html: served(renderDocsPage(document, `${baseURL}/api/openapi.json`)),
    };
    return made;
  };
  const send = (request: FastifyRequest, reply: FastifyReply, doc: Served, type: string) => {
    void reply.header('etag', doc.etag).header('cache-control', 'public, max-age=300');
    if (request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
    return reply.type(type).send(doc.body);
  };
  app.get('/openapi.json', async (request, reply) =>
    send(request, reply, make().json, 'application/json; charset=utf-8'),
  );
  app.get('/docs', async (request, reply) =>
    send(request, reply, make().html, 'text/html; charset=utf-8'),
  );
}
