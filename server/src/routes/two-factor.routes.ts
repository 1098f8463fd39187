import type { FastifyInstance } from 'fastify';
import {
  TwoFactorDisableRequest,
  TwoFactorEnableRequest,
  TwoFactorPolicyBody,
  UserIdParams,
  type TwoFactorRecoveryCodes,
  type UserTwoFactor,
} from '@cabinet/protocol';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireAdmin, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import type { ZodTypeProvider } from '../http/zod-validation.ts';
import { parseUserId } from '../services/users.service.ts';
import { audit } from '../http/audit.ts';

/**
 * /api/two-factor (docs/two-factor.md): the signed-in user's enrolment, and the administrator's
 * policy and reset. A session that may only enrol reaches these routes (and nothing else).
 */
export async function twoFactorRoutes(scope: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const twoFactor = services.twoFactor;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const self = { preHandler: requireUser(services.sessions, {}, { allowEnrolOnly: true }) };
  const admin = { preHandler: requireAdmin(services.sessions) };

  app.get('/two-factor', self, async (request) =>
    twoFactor.status(currentUser(request), request.enrolOnly),
  );

  app.post('/two-factor/setup', self, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await twoFactor.setup(currentUser(request))),
  );

  app.post(
    '/two-factor/enable',
    { ...self, schema: { body: TwoFactorEnableRequest } },
    async (request, reply) => {
      audit(request, 'two-factor.enrol', `user:${currentUser(request).id}`);
      const recoveryCodes = await twoFactor.enable(
        currentUser(request),
        request.body.code,
        request.ip,
      );
      const body: TwoFactorRecoveryCodes = { recoveryCodes };
      return reply.header('cache-control', 'no-store').send(body);
    },
  );

  app.post(
    '/two-factor/disable',
    {
      preHandler: requireUser(services.sessions),
      schema: { body: TwoFactorDisableRequest },
    },
    async (request, reply) => {
      audit(request, 'two-factor.disable', `user:${currentUser(request).id}`);
      const { password, code } = request.body;
      await twoFactor.disable(currentUser(request), password, code, request.ip);
      return sendStatus(reply, 200);
    },
  );

  app.get('/two-factor/policy', admin, async () => ({ require: await twoFactor.policy() }));

  app.put(
    '/two-factor/policy',
    { ...admin, schema: { body: TwoFactorPolicyBody } },
    async (request, reply) => {
      audit(request, 'settings.update').details.keys = ['twoFactorPolicy'];
      await twoFactor.setPolicy(request.body.require);
      return sendStatus(reply, 200);
    },
  );

  app.get(
    '/users/:id/two-factor',
    { ...admin, schema: { params: UserIdParams } },
    async (request): Promise<UserTwoFactor> => ({
      enabled: await twoFactor.hasTwoFactor(parseUserId(request.params.id)),
    }),
  );

  app.delete(
    '/users/:id/two-factor',
    { ...admin, schema: { params: UserIdParams } },
    async (request, reply) => {
      audit(request, 'two-factor.reset', `user:${request.params.id}`);
      await twoFactor.reset(parseUserId(request.params.id));
      return sendStatus(reply, 200);
    },
  );
}
