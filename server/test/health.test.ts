import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('health and unknown API paths', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers GET /health with status OK', async () => {
    const res = await server.fetch('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'OK' });
  });

  it('details in GET /api/health that watches of a local root are trusted', async () => {
    const res = await server.fetch('/api/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      details: { mounts: { path: string; trusted: boolean }[]; watchesTrusted: boolean };
    };
    expect(body.status).toBe('OK');
    // The test root is a temp folder on the machine's own disk.
    expect(body.details.mounts[0]).toMatchObject({ path: '/', trusted: true });
    expect(body.details.watchesTrusted).toBe(true);
    expect(body.details).toMatchObject({ reconcileSeconds: null });
  });

  it('answers unknown /api paths with a plain 404', async () => {
    const res = await server.fetch('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('404 Not Found\n');
  });
});
