import type { Sorting } from '@cabinet/protocol';
import { sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../files/file-type.ts';
import { offersSubtitles } from '../../files/subtitles.ts';
import { EntryKind, type Resolved, type ScopedFs, type Stats } from '../../fs/scoped-fs.ts';
import type { FreshItems } from './listing.ts';
import { sortOrder } from './sort-items.ts';
import { typeChildren } from './typed-children.ts';

/**
 * A folder listing in name order written while it is read. Names come first with what their
 * directory entries say they are (no stat), so folders can be put first, the names sorted and
 * counted; then the children are stat'ed part by part in that order as the reply is written. The
 * first part is read before the reply starts: a 1,000,000-entry folder shows its first rows once
 * its names are sorted, not once a million files are stat'ed. Only name order can be streamed
 * (size and date orders need every stat first); folders whose entries do not say their type, with
 * many symlinks, or offering subtitles are read whole as before (`buildListing`).
 */

/** Entries read before the reply starts: the compact form's first batch. */
export const FIRST_PART = 256;
/** Entries per later part: enough for the stat worker to pay off, few enough to keep bytes flowing. */
const PART = 65_536;
/** Symlinks are resolved twice here (to sort, then to list); past this many, read the folder whole. */
const MAX_LINKS = 256;

/** The children of a streamed listing: the first part now, the others as they are asked for. */
export interface StreamedItems {
  readonly kind: 'streamed';
  readonly first: FreshItems;
  /** Later parts in order, each read when asked for. */
  rest(): AsyncGenerator<FreshItems>;
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
 * the folder must be read whole instead.
 */
export async function startStreamedListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  sorting: Sorting,
): Promise<StreamedListingStart | null> {
  const read = await fs.readVisibleNames(dir);
  // Names in code-unit order first, as a whole read does (listing.ts): V8's native sort does that
  // faster than the natural comparator, which then mostly finds long runs.
  const kindOf = new Map<string, EntryKind>();
  for (let i = 0; i < read.names.length; i++) {
    if (read.kinds[i] !== EntryKind.File) kindOf.set(read.names[i]!, read.kinds[i]!);
  }
  const names = read.names.sort();
  const kinds = names.map((name) => kindOf.get(name) ?? EntryKind.File);
  const links: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const kind = kinds[i]!;
    if (kind === EntryKind.Unknown) return null;
    if (kind === EntryKind.Symlink && links.push(names[i]!) > MAX_LINKS) return null;
    // A video's subtitles may be any sibling's or in a sub-folder: the whole-folder reader finds them.
    if (offersSubtitles(names[i]!, kind === EntryKind.Dir)) return null;
  }
  // A link sorts as what it points to; escaping, looping and denied ones are left out.
  const linkDirs = new Set<string>();
  const linkGone = new Set<string>();
  if (links.length > 0) {
    const resolved = await fs.statVisible(dir, links);
    for (let i = 0; i < resolved.count; i++) {
      if (!resolved.present(i)) linkGone.add(resolved.name(i));
      else if (resolved.isDir(i)) linkDirs.add(resolved.name(i));
    }
  }
  const shown: number[] = [];
  const isDir = new Uint8Array(names.length);
  let numDirs = 0;
  for (let i = 0; i < names.length; i++) {
    const kind = kinds[i]!;
    if (kind === EntryKind.Symlink && linkGone.has(names[i]!)) continue;
    shown.push(i);
    if (kind === EntryKind.Dir || (kind === EntryKind.Symlink && linkDirs.has(names[i]!))) {
      isDir[i] = 1;
      numDirs++;
    }
  }
  const order = sortOrder(shown, sorting, {
    name: (i) => names[i]!,
    isDir: (i) => isDir[i] === 1,
    size: () => 0,
    modifiedMs: () => 0,
  });
  const ordered = order.map((i) => names[i]!);
  const first = await readPart(fs, dir, ordered.slice(0, FIRST_PART));
  async function* rest(): AsyncGenerator<FreshItems> {
    for (let start = FIRST_PART; start < ordered.length; start += PART) {
      yield await readPart(fs, dir, ordered.slice(start, start + PART));
    }
  }
  return {
    items: { kind: 'streamed', first, rest },
    numDirs,
    numFiles: ordered.length - numDirs,
  };
}
