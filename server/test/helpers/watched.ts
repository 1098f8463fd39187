import path from 'node:path';
import { folderStamp } from '../../src/tree/read/folder-stamp.ts';
import type { TestServer } from '../../testing/test-server.ts';

/**
 * Waits until the server watches a folder on its current inode and the folder's last change is
 * old enough that its stamp tells a later one (`FolderStamp.racy`): a listing of it can then be
 * cached.
 */
export async function watched(server: TestServer, virtual: string): Promise<void> {
  const real = path.join(server.ctx.files.realRoot, virtual);
  for (let attempt = 0; ; attempt++) {
    await server.ctx.search.settled();
    const stamp = await folderStamp(real);
    if (stamp && !stamp.racy && server.ctx.search.isWatched(real, stamp)) return;
    if (attempt > 100_000) throw new Error(`${virtual} never became watched`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
