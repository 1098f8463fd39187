import type { ResourceItem, SharedMark } from '@cabinet/protocol';
import type { ListEntry, Resolved, ScopedFs } from '../../fs/scoped-fs.ts';
import { fileInfo } from './file-info.ts';
import { knownTops, type HolderViews } from './granted-tops.ts';
import type { GrantedItems, Listing } from './listing.ts';
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
 * The grants' parts of listings by the entries they were made from (items, their JSON and marks):
 * the top of a view hands out the same entries for as long as they hold (MountedParts.rootEntries,
 * docs/teams.md "Cost"), so their items are made once. A service holds it; a part goes with its
 * entries.
 */
export type KeptGrantedItems = WeakMap<readonly ListEntry[], GrantedItems>;

/**
 * The grants a listing of the top of a view, or of "Shared with me", shows after the user's own
 * children, or null. Independent of that listing: a caller may look them up beside it.
 */
export async function grantedPart(
  fs: ScopedFs,
  dir: Resolved,
  cache?: ListingCache,
  kept?: { items: KeptGrantedItems; holders: HolderViews },
): Promise<GrantedItems | null> {
  const entries = await fs.grantEntries(dir, knownTops(fs.root, cache, kept?.holders ?? new Map()));
  if (entries.length === 0) return null;
  let granted = kept?.items.get(entries);
  if (!granted) {
    granted = grantedItems(fs, entries);
    kept?.items.set(entries, granted);
  }
  return granted;
}

/**
 * A listing with the grants shown in its folder (`grantedPart`) appended after the user's own
 * children; a listing in a grant carries its mark on the folder.
 */
export function withGrants(
  fs: ScopedFs,
  dir: Resolved,
  listing: Listing,
  granted: GrantedItems | null,
): Listing {
  const mark = sharedMarkOf(fs, dir);
  const folder: ResourceItem = mark ? { ...listing.folder, shared: mark } : listing.folder;
  if (!granted) return mark ? { ...listing, folder } : listing;
  return {
    ...listing,
    folder,
    numDirs: listing.numDirs + granted.numDirs,
    numFiles: listing.numFiles + granted.entries.length - granted.numDirs,
    granted,
  };
}

/** The entries as listing items with their marks, in JSON. */
function grantedItems(fs: ScopedFs, entries: readonly ListEntry[]): GrantedItems {
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
  return {
    kind: 'granted',
    entries,
    json: items.map((item) => JSON.stringify(item)).join(','),
    order: entries.map((_, i) => i),
    numDirs: entries.filter((entry) => entry.stat?.isDirectory()).length,
  };
}
