import { canonicalPath, isVirtualInside } from '../../fs/canonical-path.ts';
import type { PlacedMount } from '../../fs/mounts.ts';
import type { Resolved, ScopedFs } from '../../fs/scoped-fs.ts';

/**
 * The trash of the root (docs/teams.md): deletes inside a team folder, which has no owning user,
 * are kept under this owner id (`<data>/trash/0/…`), listed for the one who deleted and for
 * administrators. No user has id 0, so no user's quota counts these bytes.
 */
export const ROOT_TRASH = 0;

/** Whose trash a delete goes to, and the item's path in that owner's view. */
export interface TrashOwner {
  /** The share's owner, or ROOT_TRASH for a team folder; the deleter for their own files. */
  userId: number;
  /** The owner's path of the item (a team folder's: its root path). */
  path: string;
}

function ownerIdOf(mount: PlacedMount): number | null {
  return mount.spec.kind === 'team' ? ROOT_TRASH : (mount.spec.ownerId ?? null);
}

/**
 * Where a delete of `target` in `fs` (the deleter's view) goes: inside a grant, to the folder's
 * owner under the owner's path of the item (docs/teams.md); else the deleter's own trash.
 */
export async function trashOwnerOf(
  deleterId: number,
  fs: ScopedFs,
  target: Resolved,
): Promise<TrashOwner> {
  const mount = fs.mountOf(target);
  const base = mount && (await fs.grantOwnerPath(mount));
  const ownerId = mount && ownerIdOf(mount);
  if (!mount || base === null || ownerId === null || !mount.spec.isDir) {
    return { userId: deleterId, path: target.path };
  }
  // By segments: the view path may be spelled in another case than the mount's own path.
  const depth = canonicalPath(mount.path).segments.length;
  const rest = canonicalPath(target.path).segments.slice(depth);
  return { userId: ownerId, path: canonicalPath([base, ...rest].join('/')).path };
}

/**
 * Where an item someone deleted inside a grant is, in their view now: the path under the grant
 * that holds its owner's path, when they still hold that grant and the rules of both sides let
 * them see it there (docs/teams.md). Null when they no longer have access.
 */
export async function deleterPathOf(
  fs: ScopedFs,
  record: { userId: number; path: string },
): Promise<string | null> {
  const fold = (value: string) => (fs.caseInsensitive ? value.toLowerCase() : value);
  for (const mount of await fs.mountList()) {
    if (!mount.spec.isDir || ownerIdOf(mount) !== record.userId) continue;
    const base = await fs.grantOwnerPath(mount);
    if (base === null) continue;
    const at = canonicalPath(record.path);
    if (at.path === base || !isVirtualInside(fold(at.path), fold(base))) continue;
    const depth = canonicalPath(base).segments.length;
    const shown = canonicalPath([mount.path, ...at.segments.slice(depth)].join('/')).path;
    const view = await fs.viewOf(shown).catch(() => null);
    if (view && view.isAllowed(shown)) return shown;
  }
  return null;
}
