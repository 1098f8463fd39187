import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Runtime } from './runtime.ts';
import { applyApiHeaders } from './http/api-headers.ts';
import { handleError } from './http/error-handler.ts';
import { acceptJsonBodies } from './http/json-body.ts';
import { useZodValidation } from './http/zod-validation.ts';
import { createMethodGuard } from './http/method-guard.ts';
import { useSecurityHeaders } from './http/security-headers.ts';
import { useAuditLog } from './http/audit.ts';
import { readTlsFiles } from './config/tls-files.ts';
import { sendStatus } from './http/reply.ts';
import { redactUrl } from './logger.ts';
import { API_ROUTES, ROOT_ROUTES } from './routes/index.ts';
import { allowDavMethods } from './routes/dav.routes.ts';
import { uncleanPathRedirect } from './web-host/clean-path.ts';
import { collectRoutes } from './openapi/route-table.ts';

/** Strips the base URL when present; requests without it are served too (lenient, like filebrowser). */
export function stripBaseURL(url: string, baseURL: string): string {
  if (!baseURL) return url;
  if (url === baseURL || url.startsWith(`${baseURL}/`) || url.startsWith(`${baseURL}?`)) {
    return url.slice(baseURL.length) || '/';
  }
  return url;
}

/** Whether a (base-URL-stripped) URL is one of the resumable-upload routes. */
function isTusUrl(url: string): boolean {
  return /^\/api\/tus(?:[/?]|$)/.test(url);
}

/**
 * Builds the Fastify instance with every route area over the runtime's services, and ties the
 * runtime's timed work to the app: it starts when the app is ready and stops when it closes. The
 * caller decides where the app listens.
 */
export async function buildApp(runtime: Runtime): Promise<FastifyInstance> {
  const { ctx } = runtime;
  const tls = readTlsFiles(ctx.config);
  const app = Fastify({
    // With --cert and --key Cabinet serves HTTPS itself (docs/security.md); `https` typed loosely
    // so the instance keeps one type whichever server it runs on.
    ...(tls ? ({ https: tls } as object) : {}),
    loggerInstance: ctx.log,
    // Fastify's own request log would print query tokens; onResponse below logs a redacted URL.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Behind a trusted reverse proxy the client is the rightmost untrusted X-Forwarded-For hop and
    // the scheme comes from X-Forwarded-Proto; from anyone else both headers are ignored. The
    // limits and the request log use this address (docs/reverse-proxy.md).
    trustProxy: ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false,
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 8192,
    },
    rewriteUrl: (req) => stripBaseURL(req.url ?? '/', ctx.config.baseURL),
    // Requests that arrive while the server shuts down are refused by the hook below instead.
    return503OnClosing: false,
    // A URL the router cannot decode (bad percent-encoding) gets the API's plain-text 400, never
    // Fastify's JSON error, which echoes the URL back.
    frameworkErrors: (_error, _request, reply) => sendStatus(reply, 400, 'malformed URL'),
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('tokenExp', 0);
  app.decorateRequest('enrolOnly', false);
  app.setErrorHandler(handleError);
  useZodValidation(app);
  app.setNotFoundHandler(async (_request, reply) => sendStatus(reply, 404));
  useSecurityHeaders(app);
  useAuditLog(app, runtime.services.audit);

  // While shutting down, Fastify still takes requests on open connections (and new connections
  // until its preClose hooks have run). They are refused here: resumable-upload requests with 423,
  // which tus-js-client retries later, because a 503 to its HEAD makes it give the upload up and
  // start again from byte 0; every other request with 503. Either way the connection closes.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Uploads in flight are stopped (their data fsynced) so a shutdown does not wait for slow clients.
    await runtime.abortRequests();
  });
  app.addHook('onReady', () => runtime.start());
  app.addHook('onClose', () => runtime.stop());
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return undefined;
    void reply.header('connection', 'close');
    return sendStatus(reply, isTusUrl(request.url) ? 423 : 503);
  });

  // Canonical URLs before routing: the bare base URL gains its slash, and paths holding `//`,
  // `/./` or `/../` are redirected to their cleaned form so no rule ever sees an unclean path.
  app.addHook('onRequest', async (request, reply) => {
    const original = request.originalUrl;
    const base = ctx.config.baseURL;
    const pathOnly = original.split('?')[0];
    if (base && pathOnly === base) {
      return reply.redirect(`${base}/${original.slice(base.length)}`, 301);
    }
    const cleaned = uncleanPathRedirect(original);
    if (cleaned !== undefined) return reply.redirect(cleaned, 301);
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // Read-your-writes across instances: a reply leaves once the changes made so far are told to
    // the other instances (tree/change-relay.ts).
    const relay = runtime.tree.relay;
    if (relay?.busy) await relay.flushed();
    if (request.url.startsWith('/api/')) applyApiHeaders(reply);
    // A request that was running when the shutdown began ends its keep-alive connection with its
    // reply; left open, the connection would hold the shutdown until its grace period ran out.
    if (closing) void reply.header('connection', 'close');
    // An answer sent before the body was all read (a refusal mid-upload: a full disk, a quota) ends
    // the connection: Node does not drain a body a handler began to read, so the rest of it would
    // sit on a kept-alive connection and stall the next request sent over it.
    else if (!request.raw.complete) void reply.header('connection', 'close');
    return payload;
  });
  const { metrics } = runtime;
  if (metrics) {
    // Labelled by the matched route pattern, never the raw URL: one series per route, however
    // many files are asked for. Requests no route matched share one label.
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        client: request.ip,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    // An upgrade request answered over HTTP (a redirect, a 404, a refusal before the command
    // socket's own hooks ran) holds a socket Node has already detached from the HTTP server: no
    // keep-alive, no closeAllConnections. Left open it would live until the client hung up and hold
    // a shutdown; the answer is complete, so end it here. A real upgrade is hijacked and never here.
    if (isUpgradeRequest(request.headers)) request.raw.socket.destroy();
  });

  // The route table the OpenAPI document is made from (GET /api/openapi.json).
  collectRoutes(app);
  allowDavMethods(app);
  for (const routes of ROOT_ROUTES) await app.register(async (scope) => routes(scope, runtime));
  await app.register(
    async (api) => {
      acceptJsonBodies(api);
      const methods = createMethodGuard();
      methods.track(api, '/api/*');
      for (const routes of API_ROUTES) await api.register(async (scope) => routes(scope, runtime));
      // Unknown API paths are a clean 404 rather than the SPA page (docs/api.md); a
      // known path asked with another method is a 405. Both answer in onRequest, before any body
      // is read or parsed: a wrong method never gets a body error (400/413) instead.
      api.all(
        '/*',
        { onRequest: async (request, reply) => methods.answer(request, reply) },
        () => undefined,
      );
    },
    { prefix: '/api' },
  );
  return app;
}

/** The headers Node reads as an upgrade (its 'upgrade' event): `Connection: upgrade` and `Upgrade`. */
function isUpgradeRequest(headers: { connection?: string; upgrade?: string }): boolean {
  return headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(headers.connection ?? '');
}
