import type { Writable } from 'node:stream';
import { Header, Pax } from 'tar';
import { writeChunk, type CopyOptions } from '../streams/file-copy.ts';
import { cleanEntryName, type ArchiveEntry, type ArchiveWarning } from './archive-entry.ts';
import { openedAhead, writeEntryContent } from './entry-content.ts';

/** Writes a whole container (tar or zip) of `entries` into `sink`, without ending it. */
export type ContainerWriter = (
  entries: AsyncIterable<ArchiveEntry>,
  sink: Writable,
  copy: CopyOptions,
  warn: ArchiveWarning,
) => Promise<void>;

const BLOCK = 512;
const PADDING = Buffer.alloc(BLOCK);
const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK);

/**
 * The header blocks of one entry (node-tar's encoder): ustar, with a pax record before it when the
 * name is not ASCII or too long for ustar's name and prefix fields; sizes past 8 GiB use the
 * base-256 size field GNU tar reads.
 */
function headerBlocks(fields: {
  path: string;
  type: 'File' | 'Directory';
  mode: number;
  mtime: Date;
  size: number;
}): Buffer {
  const header = new Header(fields);
  const block = Buffer.alloc(BLOCK);
  const needsPax = header.encode(block, 0);
  if (!needsPax) return block;
  const pax = new Pax({ path: fields.path, mtime: fields.mtime, size: fields.size }).encode();
  return Buffer.concat([pax, block]);
}

/**
 * A tar stream: each file's content goes from the file to the sink through reused buffers with
 * nothing in between, so throughput is bounded by the disk and the socket, not by the packer. One
 * entry is in flight at a time, so memory stays flat whatever the size of the tree.
 */
export const writeTar: ContainerWriter = async (entries, sink, copy, warn) => {
  const { signal } = copy;
  for await (const { entry, file } of openedAhead(entries, warn)) {
    try {
      signal.throwIfAborted();
      const name = cleanEntryName(entry.name);
      const fields = { mode: entry.mode & 0o7777, mtime: entry.mtime };
      if (entry.isDir) {
        // The trailing slash is how tar lists folders.
        const header = headerBlocks({ ...fields, path: `${name}/`, type: 'Directory', size: 0 });
        await writeChunk(sink, header, signal);
        continue;
      }
      if (!file) continue;
      const header = headerBlocks({ ...fields, path: name, type: 'File', size: entry.size });
      await writeChunk(sink, header, signal);
      await writeEntryContent(entry, file, sink, copy, warn);
      const padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
      if (padding > 0) await writeChunk(sink, PADDING.subarray(0, padding), signal);
    } finally {
      await file?.close();
    }
  }
  await writeChunk(sink, END_OF_ARCHIVE, signal);
};
