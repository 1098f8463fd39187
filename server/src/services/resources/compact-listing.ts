import {
  COMPACT_FLAG_DIR,
  COMPACT_FLAG_SYMLINK,
  type CompactListingBatch,
  type CompactListingHead,
} from '@cabinet/protocol';
import { formatTime, goFileMode } from './file-info.ts';
import { LISTED_TYPES, type Listing } from './listing.ts';

/**
 * The first batch is small so that the client can show the first screen of rows as soon as it
 * arrives; later ones are big enough for JSON.parse and the socket writes to amortise.
 */
const FIRST_BATCH = 256;
const BATCH = 16_384;

/**
 * Cabinet's compact form of a listing (protocol/src/compact-listing.ts): the same entries in the
 * same order as `listingJson`, as an NDJSON head line and batch lines of columns, produced only
 * as fast as they are consumed.
 */
export function* compactListing(listing: Listing): Generator<Buffer> {
  const { children, order } = listing;
  const head: CompactListingHead = {
    ...listing.folder,
    numDirs: listing.numDirs,
    numFiles: listing.numFiles,
    sorting: listing.sorting,
    count: order.length,
    base: `${listing.folderPath === '/' ? '' : listing.folderPath}/`,
    types: [...LISTED_TYPES],
  };
  yield Buffer.from(`${JSON.stringify(head)}\n`);
  let start = 0;
  while (start < order.length) {
    const end = Math.min(order.length, start + (start === 0 ? FIRST_BATCH : BATCH));
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
      batch.name.push(children.name(i));
      batch.size.push(children.size(i));
      batch.modified.push(formatTime(children.mtimeMs(i)));
      batch.mode.push(goFileMode(children.mode(i)));
      batch.flags.push(
        (children.isDir(i) ? COMPACT_FLAG_DIR : 0) |
          (children.isSymlink(i) ? COMPACT_FLAG_SYMLINK : 0),
      );
      batch.type.push(listing.types[i]!);
      const found = listing.subtitles.get(i);
      if (found) batch.subtitles.push([k - start, found]);
    }
    yield Buffer.from(`${JSON.stringify(batch)}\n`);
    start = end;
  }
}
