import type * as z from 'zod/mini';
import { ProtocolSchemas, type JsonSchema } from './json-schemas.ts';
import { NOT_DOCUMENTED, OPERATIONS, type OperationInfo, type Reply } from './operations.ts';
import type { RegisteredRoute, RouteTable } from './route-table.ts';

/** The OpenAPI 3.1 document as plain JSON data. */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
  tags: { name: string }[];
};

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  token: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Auth',
    description: 'The token of POST /api/login (filebrowser clients).',
  },
  cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'auth',
    description: "The web app's token cookie; GET and HEAD only (mutations never take it).",
  },
  queryToken: {
    type: 'apiKey',
    in: 'query',
    name: 'auth',
    description:
      'The token in the query, on the GETs of links a browser opens (downloads, previews).',
  },
  appPassword: {
    type: 'http',
    scheme: 'basic',
    description: 'An app password (docs/webdav.md) as the password; the user name may be empty.',
  },
  appPasswordBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An app password as a bearer token.',
  },
  sharePassword: {
    type: 'apiKey',
    in: 'header',
    name: 'X-SHARE-PASSWORD',
    description: "A protected share link's password (or `?token=` from its first answer).",
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The --metrics-token; addresses of --metrics-allow need none.',
  },
};

const WILDCARD =
  "A path below the area's root, slashes included (`docs/report.pdf`, empty for the root); " +
  'its slashes may be sent as they are or percent-encoded.';

/** Fastify's `/api/users/:id` and `/api/raw/*` as OpenAPI's `/api/users/{id}`, `/api/raw/{path}`. */
export function openApiPath(url: string): string {
  return url
    .split('/')
    .map((segment) => (segment === '*' ? '{path}' : segment.replace(/^:(.+)$/, '{$1}')))
    .join('/');
}

/** The route key (`GET /api/users/:id`) of a document's path and method. */
export function routeKeyOf(method: string, path: string): string {
  const url = path
    .split('/')
    .map((segment) => (segment === '{path}' ? '*' : segment.replace(/^\{(.+)\}$/, ':$1')))
    .join('/');
  return `${method.toUpperCase()} ${url}`;
}

/** `getUsersById` for GET /api/users/{id}; a root path's twin under /api keeps its `Api`. */
function operationId(method: string, path: string, taken: Set<string>): string {
  const id = idOf(method, path, ['api']);
  const unique = taken.has(id) ? idOf(method, path, []) : id;
  taken.add(unique);
  return unique;
}

function idOf(method: string, path: string, dropped: string[]): string {
  const words = path
    .split('/')
    .filter((segment) => segment && !dropped.includes(segment))
    .map((segment) => segment.replace(/^\{(.+)\}$/, 'by-$1'))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** Who may call an operation, from its guard or its words. */
function security(method: string, route: RegisteredRoute | undefined, info: OperationInfo) {
  const guard = route?.guard;
  if (!guard) {
    if (info.auth === 'share') return [{}, { sharePassword: [] }];
    if (info.auth === 'metrics') return [{}, { metricsToken: [] }];
    return [];
  }
  const read = method === 'get' || method === 'head';
  return [
    { token: [] },
    ...(read ? [{ cookie: [] }] : []),
    ...(read && guard.queryToken ? [{ queryToken: [] }] : []),
    { appPassword: [] },
    { appPasswordBearer: [] },
  ];
}

function objectProperties(schema: JsonSchema): [string, JsonSchema, boolean][] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, part]) => [name, part, required.has(name)]);
}

function parameters(
  path: string,
  route: RegisteredRoute | undefined,
  info: OperationInfo,
  schemas: ProtocolSchemas,
) {
  const params = route?.schema.params ? schemas.request(route.schema.params) : {};
  const fromParams = new Map(objectProperties(params).map(([name, part]) => [name, part]));
  const list: JsonSchema[] = [];
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    const wildcard = name === 'path' && !fromParams.has('path');
    list.push({
      name,
      in: 'path',
      required: true,
      schema: (wildcard ? fromParams.get('*') : fromParams.get(name)) ?? { type: 'string' },
      ...(wildcard ? { description: WILDCARD } : {}),
    });
  }
  const query: z.ZodMiniType | undefined = route?.schema.querystring ?? info.query;
  if (query) {
    for (const [name, part, required] of objectProperties(schemas.request(query))) {
      list.push({ name, in: 'query', required, schema: part });
    }
  }
  return list;
}

function content(reply: Reply, schemas: ProtocolSchemas): JsonSchema | undefined {
  const others = Object.fromEntries((reply.alternatives ?? []).map((type) => [type, {}]));
  if (reply.json) {
    return { 'application/json': { schema: schemas.reply(reply.json) }, ...others };
  }
  if (!reply.type) return undefined;
  const text = reply.type.startsWith('text/') || reply.type === 'application/json';
  const lines = reply.lines ? { 'x-line-schema': schemas.reply(reply.lines) } : {};
  return { [reply.type]: text ? { schema: { type: 'string' }, ...lines } : {} };
}

function operation(
  method: string,
  path: string,
  route: RegisteredRoute | undefined,
  info: OperationInfo,
  schemas: ProtocolSchemas,
  ids: Set<string>,
): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, reply] of Object.entries(info.replies)) {
    const body = content(reply, schemas);
    responses[status] = { description: reply.description, ...(body ? { content: body } : {}) };
  }
  const bodySchema = route?.schema.body ?? info.body;
  if (bodySchema || route?.schema.querystring || route?.schema.params) {
    responses['400'] ??= { description: 'Bad request: the reason is in the body' };
  }
  const admin = route?.guard?.role === 'admin';
  if (route?.guard) responses['401'] ??= { description: 'Not signed in' };
  if (admin) responses['403'] ??= { description: 'Admins only' };
  const requestBody = bodySchema
    ? { required: true, content: { 'application/json': { schema: schemas.request(bodySchema) } } }
    : info.rawBody
      ? { content: { [info.rawBody]: {} } }
      : undefined;
  const parts = parameters(path, route, info, schemas);
  const tag = path
    .split('/')
    .filter((s) => s && s !== 'api')[0]!
    .replace(/\..*$/, '');
  return {
    operationId: operationId(method, path, ids),
    summary: info.summary,
    ...(info.description || admin
      ? { description: [admin ? 'Admins only.' : '', info.description ?? ''].join(' ').trim() }
      : {}),
    tags: [tag],
    security: security(method, route, info),
    ...(parts.length > 0 ? { parameters: parts } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of every route in `table` that OPERATIONS describes: paths, methods,
 * path and query parameters, bodies and the guard's sign-in from the routes themselves, replies
 * and words from OPERATIONS, schemas from the protocol. Routes of NOT_DOCUMENTED are left out.
 */
export function buildOpenApi(
  table: RouteTable,
  options: { version: string; baseURL: string },
): OpenApiDocument {
  const schemas = new ProtocolSchemas();
  const ids = new Set<string>();
  const paths: OpenApiDocument['paths'] = {};
  for (const [key, info] of Object.entries(OPERATIONS)) {
    const [method = '', url = ''] = key.split(' ');
    const route = table.find(method, url);
    const path = openApiPath(url);
    const methods = method === 'ALL' ? (info.methods ?? ['get']) : [method.toLowerCase()];
    for (const m of methods) {
      (paths[path] ??= {})[m] = operation(m, path, route, info, schemas, ids);
      if (m === 'get' && route?.headToo) {
        paths[path]!.head = operation('head', path, route, info, schemas, ids);
      }
    }
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((ops) =>
        Object.values(ops).map((op) => (op.tags as string[])[0]!),
      ),
    ),
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cabinet',
      version: options.version,
      description:
        "Cabinet's HTTP API: filebrowser v2's wire API and Cabinet's additions (docs/api.md). " +
        'WebDAV is at /dav (docs/webdav.md).',
    },
    servers: [{ url: options.baseURL || '/' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { schemas: schemas.components(), securitySchemes: SECURITY_SCHEMES },
    tags: tags.sort().map((name) => ({ name })),
  };
}

/** What differs between a document and the routes Fastify registered. */
export interface Coverage {
  /** Routes (`GET /api/x`) with no operation in the document. */
  undocumented: string[];
  /** Operations (`get /api/x`) with no route. */
  unrouted: string[];
  /** Routes without a guard whose operation does not say who may call them. */
  unsaid: string[];
}

/** Compares a document with a route table (NOT_DOCUMENTED routes aside). */
export function coverage(document: OpenApiDocument, routes: readonly RegisteredRoute[]): Coverage {
  const undocumented: string[] = [];
  const unsaid: string[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    if (NOT_DOCUMENTED[key] !== undefined) continue;
    const ops = document.paths[openApiPath(route.url)] ?? {};
    const documented =
      route.method === 'ALL'
        ? Object.keys(ops).length > 0
        : ops[route.method.toLowerCase()] !== undefined;
    if (!documented) undocumented.push(key);
    else if (!route.guard && OPERATIONS[key]?.auth === undefined) unsaid.push(key);
  }
  const unrouted: string[] = [];
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const method of Object.keys(ops)) {
      const [m, url] = routeKeyOf(method, path).split(' ') as [string, string];
      const routed = routes.some(
        (r) =>
          r.url === url &&
          (r.method === m ||
            r.method === 'ALL' ||
            (m === 'HEAD' && r.method === 'GET' && r.headToo)),
      );
      if (!routed) unrouted.push(`${method} ${path}`);
    }
  }
  return { undocumented, unrouted, unsaid };
}
