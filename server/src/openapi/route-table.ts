import type { FastifyInstance, RouteOptions } from 'fastify';
import type * as z from 'zod/mini';
import { guardInfo, type GuardInfo } from '../http/authenticate.ts';

/** The zod schemas a route validates its request with (http/zod-validation.ts). */
export interface RouteSchemas {
  params?: z.ZodMiniType;
  querystring?: z.ZodMiniType;
  body?: z.ZodMiniType;
}

/** One route as Fastify registered it, with what the OpenAPI document needs of it. */
export interface RegisteredRoute {
  /** Upper-case methods; `ALL` for a route registered for every method (`app.all`). */
  method: string;
  /** Fastify's pattern, with its prefix: `/api/users/:id`, `/api/resources/*`. */
  url: string;
  schema: RouteSchemas;
  /** The sign-in its guard asks for; undefined when it has no guard of http/authenticate.ts. */
  guard: GuardInfo | undefined;
  /** A GET registered with Fastify's automatic HEAD route. */
  headToo: boolean;
}

/** More methods than any one route lists: the route was registered with `app.all`. */
const ALL_METHODS_ABOVE = 8;

/**
 * Every route of an app, from Fastify's onRoute hook: the table the OpenAPI document is generated
 * from and checked against. Fastify has no public list of its routes, so the table is filled as
 * routes register; `collectRoutes` must run before the first one.
 */
export class RouteTable {
  readonly #routes: RegisteredRoute[] = [];

  add(options: RouteOptions): void {
    const methods = [options.method].flat().map((m) => m.toUpperCase());
    const url = options.url;
    if (methods.length === 1 && methods[0] === 'HEAD' && this.#hasGet(url)) {
      // Fastify's automatic HEAD of a GET: documented with the GET.
      for (const route of this.#routes)
        if (route.url === url && route.method === 'GET') route.headToo = true;
      return;
    }
    const guard = guardInfo(options.preHandler);
    const common = {
      url,
      schema: (options.schema ?? {}) as RouteSchemas,
      guard,
      headToo: false,
    };
    if (methods.length > ALL_METHODS_ABOVE) {
      this.#routes.push({ ...common, method: 'ALL' });
      return;
    }
    for (const method of methods) this.#routes.push({ ...common, method });
  }

  /** The routes in the order they registered. */
  get routes(): readonly RegisteredRoute[] {
    return this.#routes;
  }

  find(method: string, url: string): RegisteredRoute | undefined {
    return this.#routes.find((route) => route.method === method && route.url === url);
  }

  #hasGet(url: string): boolean {
    return this.#routes.some((route) => route.url === url && route.method === 'GET');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as it registered (server/src/openapi/route-table.ts). */
    routeTable: RouteTable;
  }
}

/** Starts the table of `app`'s routes; call before any route registers. */
export function collectRoutes(app: FastifyInstance): RouteTable {
  const table = new RouteTable();
  app.addHook('onRoute', (options) => table.add(options));
  app.decorate('routeTable', table);
  return table;
}
