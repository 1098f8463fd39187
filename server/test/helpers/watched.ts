import path from 'node:path';
import type { TestServer } from '../../testing/test-server.ts';
import { eventually } from './eventually.ts';

/** Waits until the server watches a folder (a listing of it can then be cached). */
export async function watched(server: TestServer, virtual: string): Promise<void> {
  const real = path.join(server.ctx.files.realRoot, virtual);
  await eventually(
    async () => {
      await server.ctx.search.settled();
      return server.ctx.search.isWatched(real);
    },
    (yes) => yes,
  );
}
