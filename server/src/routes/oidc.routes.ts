import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  OIDC_CODE_FRAGMENT,
  OIDC_ERROR_PARAM,
  OidcExchangeRequest,
  type OidcLogoutResponse,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { OidcError } from '../services/auth/oidc.ts';

/** The origin and base URL the browser reached Cabinet at (X-Forwarded-* only from trusted proxies). */
function appUrl(request: FastifyRequest, baseURL: string): string {
  return `${request.protocol}://${request.host}${baseURL}`;
}

/**
 * What the log says of a failure's cause: openid-client wraps the check that failed, so the chain
 * is walked for the innermost message, the error code and the claim at fault (nonce, exp, aud…),
 * never the claims themselves.
 */
function whyOf(cause: unknown): { cause?: string; code?: string; claim?: string } {
  const why: { cause?: string; code?: string; claim?: string } = {};
  for (let at = cause, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    const { message, code, claim } = at as { message?: unknown; code?: unknown; claim?: unknown };
    if (typeof message === 'string') why.cause = message;
    if (typeof code === 'string') why.code ??= code;
    if (typeof claim === 'string') why.claim ??= claim;
    at = (at as { cause?: unknown }).cause;
  }
  return why;
}

/** The login page with a failure named, where the web app puts it in words. */
function failed(reply: FastifyReply, base: string, failure: string): FastifyReply {
  const login = `${base}/login?${OIDC_ERROR_PARAM}=${encodeURIComponent(failure)}`;
  return reply.header('cache-control', 'no-store').redirect(login, 302);
}

/** GET /api/oidc/login and /callback, POST /api/oidc/exchange and /logout (docs/sso.md). */
export async function oidcRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services, ctx } = runtime;
  const oidc = services.oidc;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const base = ctx.config.baseURL;
  const log = ctx.log.child({ area: 'oidc' });

  const fail = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof OidcError)) throw error;
    log.warn(
      { failure: error.failure, ...whyOf(error.cause) },
      `single sign-on failed: ${error.message}`,
    );
    return failed(reply, base, error.failure);
  };

  app.get('/oidc/login', async (request, reply) => {
    const { redirect } = request.query as { redirect?: unknown };
    try {
      const url = await oidc.begin(`${appUrl(request, base)}/api/oidc/callback`, redirect);
      return reply.header('cache-control', 'no-store').redirect(url.toString(), 302);
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.get('/oidc/callback', async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    try {
      const { code, returnTo } = await oidc.complete(query);
      // The code travels in the fragment: browsers send it to no server and no Referer.
      const fragment = new URLSearchParams({ [OIDC_CODE_FRAGMENT]: code, redirect: returnTo });
      return reply
        .header('cache-control', 'no-store')
        .redirect(`${base}/login#${fragment.toString()}`, 302);
    } catch (error) {
      return fail(reply, error);
    }
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
