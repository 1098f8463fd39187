import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { handleError } from './http/error-handler.ts';
import { sendStatus } from './http/reply.ts';
import { redactUrl } from './logger.ts';
import { API_ROUTES, ROOT_ROUTES } from './routes/index.ts';

/** Strips the base URL when present; requests without it are served too (lenient, like filebrowser). */
export function stripBaseURL(url: string, baseURL: string): string {
  if (!baseURL) return url;
  if (url === baseURL || url.startsWith(`${baseURL}/`) || url.startsWith(`${baseURL}?`)) {
    return url.slice(baseURL.length) || '/';
  }
  return url;
}

/** Builds the Fastify instance with every route area; main.ts decides where it listens. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    // Fastify's own request log would print query tokens; onResponse below logs a redacted URL.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 8192,
    },
    rewriteUrl: (req) => stripBaseURL(req.url ?? '/', ctx.config.baseURL),
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('tokenExp', 0);
  app.setErrorHandler(handleError);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  for (const routes of ROOT_ROUTES) await app.register(async (scope) => routes(scope, ctx));
  await app.register(
    async (api) => {
      for (const routes of API_ROUTES) await api.register(async (scope) => routes(scope, ctx));
      // Unknown API paths are a clean 404 rather than the SPA page (Cabinet's decision 1).
      api.all('/*', async (_request, reply) => sendStatus(reply, 404));
    },
    { prefix: '/api' },
  );
  return app;
}
