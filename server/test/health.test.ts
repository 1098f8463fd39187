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
    expect(await res.json()).toEqual({ status: 'OK' });
  });

  it('answers unknown /api paths with a plain 404', async () => {
    const res = await server.fetch('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('404 Not Found\n');
  });
});
