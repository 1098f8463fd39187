import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './helpers/log-capture.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('unexpected failures', () => {
  let server: TestServer;
  const { log, lines: logged } = captureLog('error');
  beforeAll(async () => {
    server = await startTestServer({ log });
  });
  afterAll(() => server.close());

  it('answer a bare 500 that leaks no path or stack, and log the context', async () => {
    const saved = await server.ctx.settings.get();
    // Corrupt the stored settings so that reading them throws deep inside the service.
    await server.ctx.store.db
      .updateTable('kv')
      .set({ value: '{not json' })
      .where('key', '=', 'settings')
      .execute();
    try {
      const res = await server.fetch('/api/settings', { token: server.admin.token });
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(body).toBe('500 Internal Server Error\n');
      expect(body).not.toMatch(/\/tmp|node_modules|JSON|Unexpected/);
      const entry = logged.map((line) => JSON.parse(line) as Record<string, unknown>).at(-1)!;
      expect(entry).toMatchObject({ msg: 'unhandled error', method: 'GET', url: '/api/settings' });
      expect(JSON.stringify(entry.err)).toMatch(/JSON/);
    } finally {
      await server.ctx.settings.save(saved);
    }
  });
});
