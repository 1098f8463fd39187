import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PathParams } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { sendStatus } from '../http/reply.ts';
import {
  botCheckOrigins,
  newNonce,
  pageCsp,
  PERMISSIONS_POLICY,
} from '../http/security-headers.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { readIndexTemplate, renderIndex } from '../web-host/index-page.ts';
import { buildPageConfig } from '../web-host/page-config.ts';
import { resolveStatic } from '../web-host/static-files.ts';

/** Same policy as the API: assets may only load from this origin. */
const STATIC_CSP = "default-src 'self'; style-src 'unsafe-inline';";

/**
 * The web app: `/static/*` serves the build (and branding overrides), and every other GET that
 * is not an API call renders index.html with the page configuration (the SPA fallback).
 */
export async function webHostRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { ctx } = runtime;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The web app's scripts and styles shrink to about a third with br/gzip; browsers then keep the
  // hashed assets for a year, so each is compressed about once per visitor.
  // The build's own scripts and styles come compressed at the highest levels beside them
  // (web/scripts/precompress.mjs, `preCompressed` below); this covers the rest.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024 });
  // Files are always sent with an explicit root; the data folder is only the required default.
  await app.register(fastifyStatic, {
    root: ctx.config.data,
    serve: false,
    cacheControl: false,
    dotfiles: 'ignore',
    preCompressed: true,
  });

  app.get('/static/*', { schema: { params: PathParams } }, async (request, reply) => {
    const settings = await ctx.settings.get();
    const target = await resolveStatic(
      request.params['*'],
      ctx.config.webDist,
      settings.branding.files,
    );
    if (!target) return sendStatus(reply, 404);
    return reply
      .header('cache-control', target.cacheControl)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', STATIC_CSP)
      .sendFile(target.file, target.root);
  });

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const template = await readIndexTemplate(ctx.config.webDist);
    if (template === undefined) {
      return reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send('web app not built: run npm run build\n');
    }
    const page = {
      ...(await buildPageConfig(ctx.config, await ctx.settings.get())),
      // request.protocol believes X-Forwarded-Proto only from a trusted proxy.
      SecureCookies: request.protocol === 'https',
    };
    // The page will list folders and ask for their thumbnails: the image library loads meanwhile.
    runtime.services.preview.prepare();
    const nonce = newNonce();
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-security-policy',
        pageCsp(
          nonce,
          ctx.config.frameAncestors,
          page.ReCaptcha && page.ReCaptchaHost ? botCheckOrigins(page.ReCaptchaHost) : [],
        ),
      )
      .header('permissions-policy', PERMISSIONS_POLICY)
      .send(renderIndex(template, page, nonce));
  };
  app.get('/', async (request, reply) => sendIndex(request, reply));
  app.get('/*', async (request, reply) => sendIndex(request, reply));
}
