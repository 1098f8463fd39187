import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before the reply is finished, so long work for
 * it (archives, conversions) stops instead of running on for nobody.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client went away'));
  });
  return controller.signal;
}
