import type { TestServer } from '../../testing/test-server.ts';
import { expect } from 'vitest';

/** The paths a search of the whole scope finds (its NDJSON hits), as `token`'s user (the admin's by default). */
export async function searchedPaths(
  server: TestServer,
  query: string,
  token = server.admin.token,
): Promise<string[]> {
  const res = await server.fetch(`/api/search/?query=${encodeURIComponent(query)}`, { token });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter((row) => row.trim() !== '')
    .map((row) => (JSON.parse(row) as { path: string }).path);
}
