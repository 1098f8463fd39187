import type { ResourceItem, SharedMark, SharedWithMe } from '@cabinet/protocol';

/**
 * Marks for the entries at the top of a user's view, from GET /api/shared-with-me: each grant's
 * own folder (or file), and the folder that holds the shares with people ("Shared with me").
 * Used where a listing reply carries no `shared` mark of its own (the compact listing's batches).
 */
export function marksOf(shared: readonly SharedWithMe[]): Map<string, SharedMark> {
  const marks = new Map<string, SharedMark>();
  for (const item of shared) {
    const path = item.path.replace(/\/+$/, '');
    marks.set(path, { kind: item.kind, id: item.id, owner: item.owner, access: item.access });
    const parent = path.slice(0, path.lastIndexOf('/'));
    if (item.kind === 'people' && parent !== '' && !marks.has(parent)) {
      marks.set(parent, { kind: 'shared-with-me' });
    }
  }
  return marks;
}

/**
 * The entries with their marks: the reply's own, else the one `marks` knows for the path. Inside
 * a shared folder (`folderMark` of a team folder or a share) every entry belongs to its grant and
 * carries its mark, as the JSON reply's items do (the compact reply says it once, in its head).
 */
export function withMarks(
  entries: ResourceItem[],
  marks: ReadonlyMap<string, SharedMark> | undefined,
  folderMark?: SharedMark,
): ResourceItem[] {
  const inherited = folderMark && folderMark.kind !== 'shared-with-me' ? folderMark : undefined;
  if ((!marks || marks.size === 0) && !inherited) return entries;
  return entries.map((entry) => {
    const mark = entry.shared ?? marks?.get(entry.path.replace(/\/+$/, '')) ?? inherited;
    if (!mark || mark === entry.shared) return entry;
    return { ...entry, shared: mark };
  });
}

/**
 * Whether an entry is a grant itself (a team folder at the top of the view, a share in "Shared
 * with me", or that folder), not an item inside one: only those are named by their mark; inside,
 * the mark is shown and the folder's heading says it once.
 */
export function isGrantTop(entry: Pick<ResourceItem, 'path' | 'shared'>): boolean {
  if (!entry.shared) return false;
  const depth = entry.path.replace(/\/+$/, '').split('/').length - 1;
  return depth === (entry.shared.kind === 'people' ? 2 : 1);
}
