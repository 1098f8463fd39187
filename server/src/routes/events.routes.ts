import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { tokenFromRequest } from '../http/token-source.ts';
import { parseLastEventId } from '../services/events/sse-format.ts';

/** EventSource cannot send headers: a GET may carry its token in `?auth=` (or the cookie). */
const SOURCES = { queryToken: true } as const;

/**
 * `GET /api/events` (a Cabinet addition, docs/jobs.md): the signed-in page's server-sent event
 * stream. `Last-Event-ID` (header, or `lastEventId` in the query for clients that cannot set it)
 * replays the user's events missed since then.
 */
export async function eventsRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  app.get<{ Querystring: { lastEventId?: string } }>(
    '/events',
    { preHandler: requireUser(services.sessions, SOURCES) },
    async (request, reply) => {
      const user = currentUser(request);
      const token = tokenFromRequest(request, SOURCES)!;
      const header = request.headers['last-event-id'];
      const lastEventId = parseLastEventId(
        typeof header === 'string' ? header : request.query.lastEventId,
      );
      const body = new PassThrough();
      const close = await services.events.open(user, token, lastEventId, {
        write: (chunk) => {
          if (!body.writableEnded) body.write(chunk);
        },
        end: () => body.end(),
      });
      reply.raw.once('close', close);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(body);
    },
  );
}
