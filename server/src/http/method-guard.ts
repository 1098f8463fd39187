import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sendStatus } from './reply.ts';

/** A registered route: its URL as a pattern and the methods it answers. */
interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/api/users/:id` → /^\/api\/users\/[^/]+$/; `*` matches the rest of the path. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Tells a wrong method on a known route (405, with `Allow`) from an unknown path (404), as the
 * reference's router does: `POST /api/settings` is 405, `GET /api/nope` 404.
 * Call `track` on the scope before its routes are registered, and `answer` from its catch-all.
 */
export function createMethodGuard() {
  const known: KnownRoute[] = [];
  return {
    track(app: FastifyInstance, catchAllUrl: string): void {
      app.addHook('onRoute', (route) => {
        if (route.url === catchAllUrl) return;
        const methods = ([] as HTTPMethods[]).concat(route.method);
        const pattern = patternOf(route.url);
        const existing = known.find((item) => item.pattern.source === pattern.source);
        if (existing) for (const method of methods) existing.methods.add(method);
        else known.push({ pattern, methods: new Set(methods) });
      });
    },
    answer(request: FastifyRequest, reply: FastifyReply): FastifyReply {
      const pathOnly = request.url.split('?')[0] ?? request.url;
      const allowed = new Set<string>();
      for (const route of known) {
        if (route.pattern.test(pathOnly)) for (const method of route.methods) allowed.add(method);
      }
      if (allowed.size === 0) return sendStatus(reply, 404);
      // The reference answers a bare 405 (gorilla/mux's default); Allow says what would work.
      return reply
        .code(405)
        .header('allow', [...allowed].sort().join(', '))
        .send();
    },
  };
}
