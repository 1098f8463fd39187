import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { AppError } from '../errors.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { RateLimitedError } from '../services/auth/rate-limit.ts';
import type { AuthAttempt } from '../services/auth.service.ts';
import { TwoFactorError } from '../services/auth/totp.ts';
import { TWO_FACTOR_HEADER } from '@cabinet/protocol';
import { audit } from '../http/audit.ts';

function attemptOf(request: FastifyRequest): AuthAttempt {
  return {
    ip: request.ip,
    headers: request.headers,
    body: typeof request.body === 'string' ? request.body : undefined,
  };
}

/**
 * The auth routes answer 401 and 429 with their reason in the body, unlike other statuses, so
 * that an operator can tell a misconfigured proxy or a throttled client from a wrong password.
 */
async function withReasons(reply: FastifyReply, task: () => Promise<FastifyReply>) {
  try {
    return await task();
  } catch (error) {
    if (error instanceof RateLimitedError) {
      return reply
        .code(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(
          `429 ${STATUS_CODES[429]} (too many attempts, try again in ${error.retryAfterSeconds} s)\n`,
        );
    }
    if (error instanceof TwoFactorError) {
      // The password was right; the header tells Cabinet's login page to ask for the code.
      return reply
        .code(401)
        .header(TWO_FACTOR_HEADER, error.kind)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(`401 ${STATUS_CODES[401]} (${error.message})\n`);
    }
    if (error instanceof AppError && error.status === 401 && error.reason) {
      return reply
        .code(401)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(`401 ${STATUS_CODES[401]} (${error.reason})\n`);
    }
    throw error;
  }
}

function sendToken(reply: FastifyReply, token: string): FastifyReply {
  return reply
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(token);
}

/** POST /api/login, /api/signup, /api/renew and /api/logout (docs/api.md). */
export async function authRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const auth = services.auth;
  // Login and signup read any body as text (capped at 1 MiB) and decode it themselves, so a
  // missing or odd content type gets the documented 403/400 rather than a parser error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: LIMITS.authBodyBytes },
    (_request, body, done) => done(null, body),
  );

  app.all('/login', async (request, reply) =>
    withReasons(reply, async () => sendToken(reply, await auth.login(attemptOf(request)))),
  );

  app.all('/signup', async (request, reply) =>
    withReasons(reply, async () => {
      await auth.signup(attemptOf(request));
      return sendStatus(reply, 200);
    }),
  );

  const enrolToo = { allowEnrolOnly: true };
  app.all(
    '/renew',
    { preHandler: requireUser(services.sessions, {}, enrolToo) },
    async (request, reply) => {
      const token = await auth.renew(currentUser(request), request.sessionId);
      return sendToken(reply.header('X-Renew-Token', 'false'), token);
    },
  );

  app.post(
    '/logout',
    { preHandler: requireUser(services.sessions, {}, enrolToo) },
    async (request, reply) => {
      audit(request, 'logout');
      await auth.logout(request.sessionId);
      return sendStatus(reply, 200);
    },
  );
}
