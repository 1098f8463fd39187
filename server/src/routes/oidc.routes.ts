import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  OIDC_CODE_FRAGMENT,
  OidcExchangeRequest,
  type OidcLogoutResponse,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { toLoginPage } from '../http/error-handler.ts';

/** The origin and base URL the browser reached Cabinet at (X-Forwarded-* only from trusted proxies). */
function appUrl(request: FastifyRequest, baseURL: string): string {
  return `${request.protocol}://${request.host}${baseURL}`;
}

/** GET /api/oidc/login and /callback, POST /api/oidc/exchange and /logout (docs/sso.md). */
export async function oidcRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services, ctx } = runtime;
  const oidc = services.oidc;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const base = ctx.config.baseURL;
  // The browser navigates to these two: a failure (an OidcError) goes back to the login page with
  // the failure named, where the web app puts it in words (http/error-handler.ts).
  const navigation = toLoginPage(base);

  app.get('/oidc/login', navigation, async (request, reply) => {
    const { redirect } = request.query as { redirect?: unknown };
    const url = await oidc.begin(`${appUrl(request, base)}/api/oidc/callback`, redirect);
    return reply.header('cache-control', 'no-store').redirect(url.toString(), 302);
  });

  app.get('/oidc/callback', navigation, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const { code, returnTo } = await oidc.complete(query);
    // The code travels in the fragment: browsers send it to no server and no Referer.
    const fragment = new URLSearchParams({ [OIDC_CODE_FRAGMENT]: code, redirect: returnTo });
    return reply
      .header('cache-control', 'no-store')
      .redirect(`${base}/login#${fragment.toString()}`, 302);
  });

  app.post('/oidc/exchange', { schema: { body: OidcExchangeRequest } }, async (request, reply) => {
    const agent = request.headers['user-agent'];
    const token = await oidc.exchange(request.body.code, {
      userAgent: typeof agent === 'string' ? agent : '',
      address: request.ip,
    });
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(token);
  });

  app.post(
    '/oidc/logout',
    { preHandler: requireUser(services.sessions, {}, { allowEnrolOnly: true }) },
    async (request): Promise<OidcLogoutResponse> => {
      currentUser(request);
      const redirect = await oidc.logout(request.sessionId, `${appUrl(request, base)}/login`);
      return { redirect };
    },
  );
}
