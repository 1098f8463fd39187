import path from 'node:path';
import type { TestServer } from '../../testing/test-server.ts';

/** Polls until `check` passes (the watcher reports a change a little after it happens). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (check(value)) return value;
    if (attempt > 2000) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

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
