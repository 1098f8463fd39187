import { validate as lintOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { coverage, type OpenApiDocument } from '../src/openapi/document.ts';
import type { RegisteredRoute } from '../src/openapi/route-table.ts';
import { createAppPassword } from './helpers/dav.ts';
import { eventually } from './helpers/eventually.ts';
import { filesUnder } from './helpers/resources.ts';

/** The operation of the document a request path falls in: the template with most fixed text wins. */
function operationFor(document: OpenApiDocument, method: string, url: string) {
  const pathOnly = url.split('?')[0]!;
  let best: { path: string; fixed: number } | undefined;
  for (const path of Object.keys(document.paths)) {
    if (!document.paths[path]![method]) continue;
    const source = path
      .split('/')
      .map((s) =>
        s === '{path}'
          ? '.*'
          : /^\{.+\}$/.test(s)
            ? '[^/]+'
            : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    if (!new RegExp(`^${source}$`).test(pathOnly)) continue;
    const fixed = path.replace(/\{[^}]+\}/g, '').length;
    if (!best || fixed > best.fixed) best = { path, fixed };
  }
  return best?.path;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe('the OpenAPI document', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  const files = filesUnder(() => server.root);

  beforeAll(async () => {
    server = await startTestServer();
    const res = await server.fetch('/api/openapi.json');
    expect(res.status).toBe(200);
    document = (await res.json()) as OpenApiDocument;
  });
  afterAll(() => server.close());

  it('is served to anyone, as JSON that caches may keep and revalidate', async () => {
    const res = await server.fetch('/api/openapi.json');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await server.fetch('/api/openapi.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(document.openapi).toBe('3.1.0');
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    const result = await lintOpenApi(structuredClone(document) as never);
    const problems = result.valid ? [] : result.errors;
    expect(problems, JSON.stringify(problems, null, 1)).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(result.warnings).toEqual([]);
  });

  it('documents every route Fastify registered, and no operation without a route', async () => {
    const routes = server.app.routeTable.routes;
    expect(routes.length).toBeGreaterThan(80);
    expect(coverage(document, routes)).toEqual({ undocumented: [], unrouted: [], unsaid: [] });
    // And the other way with Fastify's own router: each documented operation finds its route.
    for (const [path, ops] of Object.entries(document.paths)) {
      for (const method of Object.keys(ops)) {
        const url = path.replace('{path}', '*').replace(/\{([^}]+)\}/g, ':$1');
        const found = server.app.hasRoute({ method: method.toUpperCase() as 'GET', url });
        expect(found, `${method} ${path}`).toBe(true);
      }
    }
  });

  it('fails the check for a route it lacks or an operation without a route', () => {
    const added: RegisteredRoute = {
      method: 'GET',
      url: '/api/reports/:id',
      schema: {},
      guard: { role: 'user', queryToken: false },
      headToo: true,
    };
    const routes = server.app.routeTable.routes;
    expect(coverage(document, [...routes, added]).undocumented).toEqual(['GET /api/reports/:id']);
    const gone = routes.filter((r) => !(r.method === 'DELETE' && r.url === '/api/trash/:id'));
    expect(coverage(document, gone).unrouted).toEqual(['delete /api/trash/{id}']);
    const unguarded = routes.map((r) =>
      r.method === 'GET' && r.url === '/api/users' ? { ...r, guard: undefined } : r,
    );
    expect(coverage(document, unguarded).unsaid).toEqual(['GET /api/users']);
  });

  it('says who may call each operation', () => {
    const security = (path: string, method: string) =>
      (document.paths[path]![method]!.security as object[]).map((s) => Object.keys(s)[0] ?? '');
    expect(security('/api/users', 'get')).toEqual([
      'token',
      'cookie',
      'appPassword',
      'appPasswordBearer',
    ]);
    expect(document.paths['/api/users']!.get!.description).toContain('Admins only');
    expect(security('/api/raw/{path}', 'get')).toContain('queryToken');
    expect(security('/api/resources/{path}', 'patch')).not.toContain('cookie');
    expect(security('/api/login', 'post')).toEqual([]);
    expect(security('/api/public/dl/{path}', 'get')).toEqual(['', 'sharePassword']);
    const wildcard = (
      document.paths['/api/resources/{path}']!.get!.parameters as { name: string; in: string }[]
    ).filter((p) => p.in === 'path');
    expect(wildcard.map((p) => p.name)).toEqual(['path']);
  });

  it('is rendered as a page for people, with every operation and nothing from the network', async () => {
    const res = await server.fetch('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    for (const ops of Object.values(document.paths)) {
      for (const op of Object.values(ops)) expect(page).toContain(`id="${String(op.operationId)}"`);
    }
    expect(page).not.toMatch(/<script|https?:\/\//);
  });

  it("validates real replies of the server's main routes against the reply schemas", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi');
    const token = server.admin.token;
    const checked: string[] = [];
    /** Sends a request and checks its JSON reply against the document. */
    const call = async (
      method: string,
      url: string,
      init: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
    ) => {
      const res = await server.fetch(url, {
        method,
        token: init.token ?? (init.headers ? undefined : token),
        headers: init.headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const m = method.toLowerCase();
      const path = operationFor(document, m, url);
      expect(path, `${method} ${url} has an operation`).toBeDefined();
      const reply = (document.paths[path!]![m]!.responses as Record<string, { content?: object }>)[
        String(res.status)
      ];
      expect(reply, `${method} ${url} answered ${res.status}, a status it documents`).toBeDefined();
      const text = await res.text();
      if (reply!.content && 'application/json' in reply!.content) {
        const validateReply = ajv.getSchema(
          `openapi#/${pointer('paths', path!, m, 'responses', String(res.status), 'content', 'application/json', 'schema')}`,
        )!;
        const body: unknown = JSON.parse(text);
        expect(
          validateReply(body),
          `${method} ${url}: ${ajv.errorsText(validateReply.errors)}`,
        ).toBe(true);
        checked.push(`${method} ${path}`);
        return body;
      }
      return text;
    };

    await files.put('docs/report.txt', 'quarterly figures\n');
    await files.put('docs/notes.md', '# notes\n');
    await files.put('photos/a.txt', 'a');
    await call('GET', '/health', { headers: {} });
    await call('GET', '/api/health', { headers: {} });
    await call('GET', '/api/resources/');
    await call('GET', '/api/resources/docs/');
    await call('GET', '/api/resources/docs/report.txt?checksum=sha256');
    // Generated clients percent-encode the slashes of {path}: served the same.
    const encoded = (await call('GET', '/api/resources/docs%2Freport.txt')) as { path: string };
    expect(encoded.path).toBe('/docs/report.txt');
    await call('GET', '/api/resources/recursive/docs');
    await call('GET', '/api/usage/docs');
    await call('GET', '/api/users');
    await call('GET', `/api/users/${server.admin.user.id}`);
    await call('GET', `/api/users/${server.admin.user.id}/sessions`);
    await call('GET', `/api/users/${server.admin.user.id}/two-factor`);
    await call('GET', '/api/settings');
    await call('GET', '/api/quota');
    await call('GET', '/api/two-factor');
    await call('GET', '/api/two-factor/policy');
    await call('GET', '/api/memory');
    await call('GET', '/api/command-runs');
    // Shares: a link, the lists, and its public side.
    const share = (await call('POST', '/api/share/docs/report.txt', { body: {} })) as {
      hash: string;
    };
    await call('GET', '/api/shares');
    await call('GET', '/api/share/docs/report.txt');
    await call('GET', `/api/public/share/${share.hash}`, { headers: {} });
    // App passwords, and a call signed in with one.
    const created = await createAppPassword(server, token, { name: 'openapi test' });
    await call('GET', '/api/app-passwords');
    await call('GET', '/api/resources/docs/', {
      headers: { authorization: `Bearer ${created.password}` },
    });
    // Trash: on, a delete, the list, a restore.
    await call('PUT', '/api/trash/settings', {
      body: { enabled: true, retentionDays: 30, maxBytesPerUser: 0 },
    });
    await call('GET', '/api/trash/settings');
    await call('DELETE', '/api/resources/docs/notes.md');
    const trash = (await call('GET', '/api/trash')) as { id: string }[];
    expect(trash).toHaveLength(1);
    await call('POST', `/api/trash/${trash[0]!.id}/restore`, { body: {} });
    // Jobs: a copy, its state until done, the list.
    const job = (await call('POST', '/api/jobs', {
      body: { kind: 'copy', items: [{ from: '/photos/a.txt', to: '/docs/a.txt' }] },
    })) as { id: string };
    await eventually(
      async () => (await call('GET', `/api/jobs/${job.id}`)) as { state: string },
      (state) => state.state === 'done',
    );
    await call('GET', '/api/jobs');
    // Search (NDJSON: each line a SearchHit), sites, audit.
    const hits = await eventually(
      async () => {
        const res = await server.fetch('/api/search/?query=report', { token });
        return (await res.text()).split('\n').filter(Boolean);
      },
      (lines) => lines.length > 0,
    );
    const searchHit = ajv.getSchema(
      `openapi#/${pointer('paths', '/api/search/{path}', 'get', 'responses', '200', 'content', 'text/plain', 'x-line-schema')}`,
    )!;
    for (const line of hits)
      expect(searchHit(JSON.parse(line)), ajv.errorsText(searchHit.errors)).toBe(true);
    await call('GET', '/api/sites');
    await call('GET', '/api/sites?all=1');
    await call('GET', '/api/audit');
    await call('GET', '/api/audit/settings');
    expect(checked.length).toBeGreaterThanOrEqual(30);
  });
});
