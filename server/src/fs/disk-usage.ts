import { statfs } from 'node:fs/promises';
import { mapFsErrors } from './fs-errors.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';

/**
 * Total and used bytes of the volume holding a folder; files answer zeros (the usage API reports
 * folders only). The path is resolved, so a denied or escaping folder is refused as anywhere else.
 */
export async function diskUsage(
  scope: ScopeResolver,
  virtual: string | Resolved,
): Promise<{ total: number; used: number }> {
  const resolved = await scope.stat(virtual);
  if (!resolved.stat.isDirectory()) return { total: 0, used: 0 };
  const info = await mapFsErrors(() => statfs(resolved.real));
  return { total: info.blocks * info.bsize, used: (info.blocks - info.bfree) * info.bsize };
}
