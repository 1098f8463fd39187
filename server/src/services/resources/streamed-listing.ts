import type { Sorting } from '@cabinet/protocol';
import { sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../file-kinds/file-type.ts';
import { SUBTITLE_NAMES } from '../../file-kinds/subtitles.ts';
import {
  EntryKind,
  type Resolved,
  type ScopedFs,
  type Stats,
  type TypedNames,
} from '../../fs/scoped-fs.ts';
import type { FreshItems } from './listing.ts';
import { firstInNameOrder, identity, sortOrder } from '../../tree/listing/sort-items.ts';
import { typeChildren } from './typed-children.ts';
import { readTypedNames } from '../../tree/read/child-stats.ts';
import { mapFsErrors } from '../../fs/fs-errors.ts';

/**
 * A folder listing in name order written while it is read. Names come first with what their
 * directory entries say they are (no stat), so folders can be put first and counted; the first
 * 256 in order are picked out and stat'ed before the reply starts, and the rest are sorted and
 * stat'ed part by part as the reply is written. A 1,000,000-entry folder shows its first rows
 * once its names are read, not once a million names are sorted and stat'ed. Only name order can be streamed
 * (size and date orders need every stat first); folders whose entries do not say their type, with
 * many symlinks, or offering subtitles are read whole as before (`buildListing`).
 */

/** Entries read before the reply starts: the compact form's first batch. */
export const FIRST_PART = 256;
/** Entries per later part: enough for find to pay off, few enough to keep bytes flowing. */
const PART = 65_536;
/** Symlinks are resolved twice here (to sort, then to list); past this many, read the folder whole. */
const MAX_LINKS = 256;

/** The children of a streamed listing: the first part now, the others as they are asked for. */
export interface StreamedItems {
  readonly kind: 'streamed';
  readonly first: FreshItems;
  /** Later parts in order, each read when asked for. */
  rest(): AsyncGenerator<FreshItems>;
  /**
   * With `keepParts`: every part once all were read, when they hold every child of the folder
   * but none that is a link (the listing cache keeps them: ListingCache.keep); null otherwise.
   */
  read(): FreshItems[] | null;
  /** Lets go of the parts kept for `read`. */
  forget(): void;
}

/** What the names say before any stat: order, and the counts the head announces. */
export interface StreamedListingStart {
  items: StreamedItems;
  numDirs: number;
  numFiles: number;
}

const readOptions = {
  wantHead: sniffsByName,
  headBytes: SNIFF_BYTES,
  headMaxSize: TEXT_LIMIT_BYTES,
};

/** A part's children, typed, its present ones in `order`. */
async function readPart(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  names: string[],
): Promise<FreshItems> {
  const children = await fs.statVisible(dir, names, readOptions);
  const { types, subtitles, shown } = await typeChildren(children, undefined);
  return { kind: 'fresh', children, types, subtitles, order: shown };
}

/**
 * Starts a streamed listing of a folder in name order (`sorting.by` must be 'name'); null when
 * the folder must be read whole instead. `known`: the folder's children as its watch knows them
 * (ListingCache.knownChildren), so that the first rows wait for no directory read.
 */
export async function startStreamedListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  sorting: Sorting,
  known?: TypedNames | null,
  keepParts = false,
): Promise<StreamedListingStart | null> {
  // Kept parts are for the listing cache, which holds every child: the names are read whole and
  // then judged for this user, so that a user who sees them all is known to.
  const all = known ?? (keepParts ? await mapFsErrors(() => readTypedNames(dir.real)) : null);
  const read = await fs.readVisibleNames(dir, all);
  // readVisibleNames hands back the very names it was given when it hides none.
  let kept: FreshItems[] | null = keepParts && read === all ? [] : null;
  const links: number[] = [];
  for (let i = 0; i < read.count; i++) {
    const kind = read.kind(i);
    if (kind === EntryKind.Unknown) return null;
    if (kind === EntryKind.Symlink && links.push(i) > MAX_LINKS) return null;
  }
  if (links.length > 0) kept = null; // the cache keeps no links
  // A video's subtitles may be any sibling's or in a sub-folder: the whole-folder reader finds them.
  if (read.someMatch(SUBTITLE_NAMES)) return null;
  // A link sorts as what it points to; escaping, looping and denied ones are left out.
  const linkDirs = new Set<string>();
  const gone = new Set<number>();
  if (links.length > 0) {
    const resolved = await fs.statVisible(
      dir,
      links.map((i) => read.name(i)),
    );
    for (let k = 0; k < resolved.count; k++) {
      if (!resolved.present(k)) gone.add(links[k]!);
      else if (resolved.isDir(k)) linkDirs.add(resolved.name(k));
    }
  }
  // The children shown, and which are folders (links to folders count as folders) by position: a
  // million names are neither made strings, copied nor hashed on the way to the first rows.
  const shown =
    gone.size === 0
      ? read
      : read.only(Array.from({ length: read.count }, (_, i) => i).filter((i) => !gone.has(i)));
  const isDir = (i: number) =>
    shown.kind(i) === EntryKind.Dir ||
    (shown.kind(i) === EntryKind.Symlink && linkDirs.has(shown.name(i)));
  const count = shown.count;
  let numDirs = 0;
  for (let i = 0; i < count; i++) if (isDir(i)) numDirs++;
  // The first rows need only the first names in order, not the whole sort (seconds for a million).
  const firstNames = firstInNameOrder(count, FIRST_PART, sorting, {
    name: (i) => shown.name(i),
    asciiFirstUnit: (i) => shown.asciiFirstUnit(i),
    isDir,
    size: () => 0,
    modifiedMs: () => 0,
  }).map((i) => shown.name(i));
  const first = await readPart(fs, dir, firstNames);
  kept?.push(first);
  let complete = count <= FIRST_PART;
  async function* rest(): AsyncGenerator<FreshItems> {
    if (count <= FIRST_PART) return;
    // A turn of the event loop first: the first part's bytes reach the socket only then (Node
    // flushes a reply's writes on the next tick), not after the sort and stats below.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const names = shown.names();
    const folders = new Set(names.filter((_, i) => isDir(i)));
    // Names in code-unit order first, as a whole read does (listing.ts): V8's native sort does
    // that faster than the natural comparator, which then mostly finds long runs.
    const sorted = names.sort();
    const order = sortOrder(identity(count), sorting, {
      name: (i) => sorted[i]!,
      isDir: (i) => folders.has(sorted[i]!),
      size: () => 0,
      modifiedMs: () => 0,
    });
    for (let start = FIRST_PART; start < count; start += PART) {
      const end = Math.min(count, start + PART);
      // Made at its size: an array grown to 65,536 names left grown copies to V8's collector.
      const part = new Array<string>(end - start);
      for (let k = start; k < end; k++) part[k - start] = sorted[order[k]!]!;
      const items = await readPart(fs, dir, part);
      kept?.push(items);
      yield items;
    }
    complete = true;
  }
  const items: StreamedItems = {
    kind: 'streamed',
    first,
    rest,
    read: () => (complete ? kept : null),
    forget: () => {
      kept = null;
    },
  };
  return {
    items,
    numDirs,
    numFiles: count - numDirs,
  };
}
