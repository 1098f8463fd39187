import {
  COMPACT_FLAG_DIR,
  COMPACT_FLAG_SYMLINK,
  type CompactListingBatch,
  type CompactListingHead,
  type CompactListingTotals,
} from '@cabinet/protocol';
import { EventLoopTurns } from '../../streams/event-loop-turns.ts';
import { formatTime, goFileMode } from './file-info.ts';
import { LISTED_TYPES } from '../../tree/listing/listed-types.ts';
import { columnsOf, type ListedColumns } from './listed-columns.ts';
import { listedParts, type Listing } from './listing.ts';

/**
 * The first batch is small so that the client can show the first screen of rows as soon as it
 * arrives; later ones are big enough for JSON.parse and the socket writes to amortise, and small
 * enough that a page decodes one between two frames while it scrolls (16,384 entries took 100 to
 * 170 ms on a busy 2-core machine, and the scroll stuttered).
 */
const FIRST_BATCH = 256;
const BATCH = 4096;

/**
 * Cabinet's compact form of a listing (protocol/src/compact-listing.ts): the same entries in the
 * same order as `listingJson`, as an NDJSON head line and batch lines of columns, produced only
 * as fast as they are consumed; a totals line ends it when fewer entries were written than the
 * head announced.
 */
export async function* compactListing(listing: Listing): AsyncGenerator<Buffer> {
  const announced = listing.numDirs + listing.numFiles;
  const head: CompactListingHead = {
    ...listing.folder,
    numDirs: listing.numDirs,
    numFiles: listing.numFiles,
    sorting: listing.sorting,
    count: announced,
    base: `${listing.folderPath === '/' ? '' : listing.folderPath}/`,
    types: [...LISTED_TYPES],
  };
  yield Buffer.from(`${JSON.stringify(head)}\n`);
  let written = 0;
  let numDirs = 0;
  const turns = new EventLoopTurns();
  for await (const part of listedParts(listing)) {
    const columns = columnsOf(part);
    const { order } = part;
    let start = 0;
    while (start < order.length) {
      const end = Math.min(order.length, start + (written === 0 ? FIRST_BATCH : BATCH));
      yield Buffer.from(`${JSON.stringify(batchOf(columns, order, start, end))}\n`);
      for (let k = start; k < end; k++) if (columns.isDir(order[k]!)) numDirs++;
      written += end - start;
      start = end;
      // Other requests get in while a big folder is written to a client that reads fast.
      if (turns.due()) await turns.take();
    }
  }
  // Entries of a streamed listing that vanished between the directory read and their stat.
  if (written !== announced || numDirs !== listing.numDirs) {
    const totals: CompactListingTotals = {
      count: written,
      numDirs,
      numFiles: written - numDirs,
    };
    yield Buffer.from(`${JSON.stringify(totals)}\n`);
  }
}

/** Entries `start` to `end` of `order` as one batch line's columns. */
function batchOf(
  columns: ListedColumns,
  order: ArrayLike<number>,
  start: number,
  end: number,
): CompactListingBatch {
  const batch: CompactListingBatch = {
    name: [],
    size: [],
    modified: [],
    mode: [],
    flags: [],
    type: [],
    subtitles: [],
  };
  for (let k = start; k < end; k++) {
    const i = order[k]!;
    batch.name.push(columns.name(i));
    batch.size.push(columns.size(i));
    batch.modified.push(formatTime(columns.mtimeMs(i)));
    batch.mode.push(goFileMode(columns.mode(i)));
    batch.flags.push(
      (columns.isDir(i) ? COMPACT_FLAG_DIR : 0) | (columns.isSymlink(i) ? COMPACT_FLAG_SYMLINK : 0),
    );
    batch.type.push(columns.type(i));
    const found = columns.subtitles(i);
    if (found) batch.subtitles.push([k - start, found]);
  }
  return batch;
}
