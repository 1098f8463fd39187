import type { ResourceItem, SharedMark } from '@cabinet/protocol';
import type { Resolved, ScopedFs } from '../../fs/scoped-fs.ts';
import { fileInfo } from './file-info.ts';
import { knownTops } from './granted-tops.ts';
import type { Listing } from './listing.ts';
import type { ListingCache } from '../../tree/listing/listing-cache.ts';

/** What a path of a grant is, for the `shared` mark of listings (docs/teams.md). */
export function sharedMarkOf(fs: ScopedFs, virtual: string | Resolved): SharedMark | undefined {
  const route = fs.route(virtual);
  if (route.kind === 'shared-root') return { kind: 'shared-with-me' };
  if (route.kind !== 'mount') return undefined;
  const { spec } = route.mount;
  return {
    kind: spec.kind,
    id: spec.id,
    ...(spec.owner !== undefined && { owner: spec.owner }),
    access: spec.access,
  };
}

/**
 * A listing of the top of a view, or of "Shared with me", with the grants shown there appended
 * after the user's own children; a listing in a grant carries its mark on the folder.
 */
export async function withGrants(
  fs: ScopedFs,
  dir: Resolved,
  listing: Listing,
  cache?: ListingCache,
): Promise<Listing> {
  const mark = sharedMarkOf(fs, dir);
  const folder: ResourceItem = mark ? { ...listing.folder, shared: mark } : listing.folder;
  const entries = await fs.grantEntries(dir, knownTops(fs.root, cache));
  if (entries.length === 0) return mark ? { ...listing, folder } : listing;
  const items = entries.map((entry) => {
    const shared = sharedMarkOf(fs, entry.path);
    return {
      ...fileInfo({
        path: entry.path,
        name: entry.name,
        stat: entry.stat!,
        isSymlink: false,
        type: '',
      }),
      ...(shared && { shared }),
    };
  });
  const dirs = entries.filter((entry) => entry.stat?.isDirectory()).length;
  return {
    ...listing,
    folder,
    numDirs: listing.numDirs + dirs,
    numFiles: listing.numFiles + entries.length - dirs,
    granted: { kind: 'granted', entries, items, order: entries.map((_, i) => i) },
  };
}
