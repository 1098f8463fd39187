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

/** Whether two marks name the same grant. */
function isSameGrant(a: SharedMark, b: SharedMark): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/**
 * The entries with their marks: the reply's own, else the one `marks` knows for the path. Inside
 * a shared folder (`folderMark`) its entries' marks of the same grant are dropped: every entry
 * there is shared alike, and only what differs (a share inside "Shared with me") is marked.
 */
export function withMarks(
  entries: ResourceItem[],
  marks: ReadonlyMap<string, SharedMark> | undefined,
  folderMark?: SharedMark,
): ResourceItem[] {
  if ((!marks || marks.size === 0) && !folderMark) return entries;
  return entries.map((entry) => {
    const mark = entry.shared ?? marks?.get(entry.path.replace(/\/+$/, ''));
    if (mark && folderMark && isSameGrant(mark, folderMark)) {
      const { shared: _dropped, ...plain } = entry;
      return plain;
    }
    if (!mark || mark === entry.shared) return entry;
    return { ...entry, shared: mark };
  });
}
