import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { AuthAttempt } from '../services/auth.service.ts';
import { audit } from '../http/audit.ts';

function attemptOf(request: FastifyRequest): AuthAttempt {
  return {
    ip: request.ip,
    headers: request.headers,
    body: typeof request.body === 'string' ? request.body : undefined,
  };
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

  // A throttled client, a missing two-factor code and a proxy that sent no user are told why in
  // the body (their errors are `shown`), so an operator can tell them from a wrong password.
  app.all('/login', async (request, reply) =>
    sendToken(reply, await auth.login(attemptOf(request))),
  );

  app.all('/signup', async (request, reply) => {
    await auth.signup(attemptOf(request));
    return sendStatus(reply, 200);
  });

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
