import type { ResourceItem, Sorting } from '@cabinet/protocol';
import { detectType, extensionOf, needsSniff, SNIFF_BYTES } from '../../fs/file-type.ts';
import type { EntryStat, ListEntry, Resolved, ScopedFs, Stats } from '../../fs/scoped-fs.ts';
import { SubtitleFinder } from '../../fs/subtitles.ts';
import { virtualBaseName } from '../../fs/canonical-path.ts';
import { fileInfo, formatTime, goFileMode } from './file-info.ts';
import { collectSoon, type EntryBudget } from './listing-memory.ts';
import { sortBy, type SortFields } from './sort-items.ts';

/** One listed child with what its JSON needs beyond the entry. */
interface Row {
  readonly entry: ListEntry;
  /** What the item reports: its own stat, or a broken link's lstat. */
  readonly stat: EntryStat;
  readonly type: string;
  subtitles?: string[];
}

/**
 * A folder listing ready to be written: the folder's own fields, its visible children in the
 * user's order and the counts. Rows hold a few numbers each, never `fs.Stats` or item objects;
 * the JSON is produced in chunks as the client reads it (`listingJson`), so a 100,000-entry
 * folder costs a few MiB of memory and no 20 MiB string.
 */
export interface Listing {
  readonly folder: ResourceItem;
  /** Canonical virtual path of the folder (items' paths are below it). */
  readonly folderPath: string;
  readonly rows: readonly Row[];
  readonly numDirs: number;
  readonly numFiles: number;
  readonly sorting: Sorting;
  /** To be called once the reply is written or abandoned: gives the entries back to the budget. */
  done(): void;
}

/** Listings of at least this many entries are followed by a full collection (listing-memory). */
const COLLECT_AFTER_ENTRIES = 10_000;

const rowFields: SortFields<Row> = {
  name: (row) => row.entry.name,
  isDir: (row) => row.stat.isDirectory(),
  size: (row) => row.stat.size,
  modifiedMs: (row) => row.stat.mtimeMs,
};

/** Reads, types and sorts one folder's visible children (API.md section 3.1). */
export async function readListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  budget: EntryBudget,
): Promise<Listing> {
  let release: () => void = () => undefined;
  let built: Omit<Listing, 'done'>;
  try {
    built = await buildListing(fs, dir, shownPath, sorting, async (names) => {
      release = await budget.take(names);
    });
  } catch (error) {
    release();
    throw error;
  }
  const done = () => {
    release();
    if (built.rows.length >= COLLECT_AFTER_ENTRIES) collectSoon();
  };
  return { ...built, done };
}

async function buildListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  afterRead: (names: number) => Promise<void>,
): Promise<Omit<Listing, 'done'>> {
  const ordered = sorting.by === 'name' || sorting.by === 'size' || sorting.by === 'modified';
  const { entries } = await fs.list(dir, {
    wantHead: needsSniff,
    headBytes: SNIFF_BYTES,
    // The user's order is applied below; only an unknown sorting keeps the name order of list().
    sorted: !ordered,
    afterRead,
  });
  const subtitles = new SubtitleFinder(fs, entries);
  const rows: Row[] = [];
  let numDirs = 0;
  for (const entry of entries) {
    let row: Row;
    if (entry.stat) {
      const isDir = entry.stat.isDirectory();
      if (isDir) numDirs++;
      row = {
        entry,
        stat: entry.stat,
        type: isDir ? '' : detectType(entry.name, entry.stat, entry.head),
      };
      entry.head = undefined; // typed: the sniffed bytes are not kept while the reply is written
      if (row.type === 'video') {
        const found = await subtitles.find(entry.name);
        if (found.length > 0) row.subtitles = found;
      }
    } else if (entry.linkStat) {
      row = { entry, stat: entry.linkStat, type: 'invalid_link' };
    } else {
      continue;
    }
    rows.push(row);
  }
  return {
    folder: fileInfo({
      path: shownPath,
      name: virtualBaseName(dir.path),
      stat: dir.stat,
      isSymlink: dir.isSymlink,
      type: '',
    }),
    folderPath: dir.path,
    rows: ordered || sorting.asc ? sortBy(rows, sorting, rowFields) : rows,
    numDirs,
    numFiles: rows.length - numDirs,
    sorting,
  };
}

/** Items per chunk of JSON: large enough to amortise the write, small enough to stay flat. */
const ITEMS_PER_CHUNK = 512;

/** One item's JSON, with the fields in the order `fileInfo` gives them. */
function itemJson(row: Row, folderJson: string): string {
  const { entry, stat } = row;
  // The name escaped once serves both `path` (after the folder's escaped path) and `name`.
  const name = JSON.stringify(entry.name);
  const subtitles = row.subtitles ? `,"subtitles":${JSON.stringify(row.subtitles)}` : '';
  return (
    `{"path":"${folderJson}${name.slice(1)},"name":${name},` +
    `"size":${stat.size},"extension":${JSON.stringify(extensionOf(entry.name))},` +
    `"modified":"${formatTime(stat.mtimeMs)}","mode":${goFileMode(stat)},` +
    `"isDir":${stat.isDirectory()},"isSymlink":${entry.isSymlink},"type":"${row.type}"${subtitles}}`
  );
}

/**
 * The listing's JSON (the same document as `JSON.stringify` of a Resource with items) in chunks of
 * a few hundred items, produced only as fast as they are consumed.
 */
export function* listingJson(listing: Listing): Generator<string> {
  const folder = JSON.stringify(listing.folder);
  yield `${folder.slice(0, -1)},"items":[`;
  const { rows } = listing;
  // Every item's path is the folder's canonical path, a slash and the name: escaped once here.
  const folderJson = JSON.stringify(
    `${listing.folderPath === '/' ? '' : listing.folderPath}/`,
  ).slice(1, -1);
  for (let start = 0; start < rows.length; start += ITEMS_PER_CHUNK) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(rows.length, start + ITEMS_PER_CHUNK); i++) {
      parts.push(itemJson(rows[i]!, folderJson));
    }
    yield (start > 0 ? ',' : '') + parts.join(',');
  }
  yield (
    `],"numDirs":${listing.numDirs},"numFiles":${listing.numFiles},` +
    `"sorting":${JSON.stringify(listing.sorting)}}`
  );
}
