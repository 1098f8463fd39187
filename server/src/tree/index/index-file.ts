import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { GramParts } from './gram-index.ts';
import type { TableParts } from './name-table.ts';

/**
 * Version 5 keeps the folded names only, with the capitals' bits and the names kept apart (see
 * name-table.ts); an older file (both blobs) is not loaded: the index is built again once.
 */
const MAGIC = 'CABINET-NAME-INDEX-5\n';

interface Header {
  /** The real root the index describes: an index of another root is never used. */
  root: string;
  bytes: number;
  size: number;
  /** Names kept apart, and their bytes. */
  foreign: number;
  foreignBytes: number;
  /** The gram index's ids covered, trigram count and posting bytes, when it has one. */
  grams?: { covered: number; codes: number; postings: number };
}

/** Sections are padded to 8 bytes so typed arrays can view the loaded file without copying. */
function padded(length: number): number {
  return (length + 7) & ~7;
}

function sections(parts: TableParts): Uint8Array[] {
  const grams = parts.grams;
  const gramArrays = grams ? [grams.codes, grams.counts, grams.starts, grams.postings] : [];
  return [
    parts.folded,
    parts.upper,
    parts.start,
    parts.parent,
    parts.flags,
    parts.foreignIds,
    parts.foreignBytes,
    ...gramArrays,
  ].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

/** Where the index of a data folder lives. */
export function indexFilePath(dataDir: string): string {
  return path.join(dataDir, 'search-index.bin');
}

/**
 * Writes the table to a temp file and renames it over the index file, so a crash mid-write leaves
 * the previous index. The arrays are written as they are in memory (no encoding step).
 */
export async function saveIndexFile(file: string, root: string, parts: TableParts): Promise<void> {
  const header: Header = {
    root,
    bytes: parts.folded.length,
    size: parts.parent.length,
    foreign: parts.foreignIds.length,
    foreignBytes: parts.foreignBytes.length,
    ...(parts.grams && {
      grams: {
        covered: parts.grams.covered,
        codes: parts.grams.codes.length,
        postings: parts.grams.postings.length,
      },
    }),
  };
  const json = Buffer.from(JSON.stringify(header));
  const head = Buffer.alloc(padded(MAGIC.length + 4 + json.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, MAGIC.length + 4);
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.write(head);
    for (const section of sections(parts)) {
      await handle.write(section);
      const pad = padded(section.length) - section.length;
      if (pad > 0) await handle.write(Buffer.alloc(pad));
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, file);
}

/** Reads an index file of this root, or null when there is none or it does not fit. */
export async function loadIndexFile(file: string, root: string): Promise<TableParts | null> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return null;
  }
  if (data.byteOffset % 8 !== 0) data = Buffer.from(data);
  const magic = data.toString('latin1', 0, MAGIC.length);
  if (magic !== MAGIC) return null;
  const jsonLength = data.readUInt32LE(MAGIC.length);
  let header: Header;
  try {
    header = JSON.parse(
      data.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + jsonLength),
    ) as Header;
  } catch {
    return null;
  }
  if (header.root !== root) return null;
  const { bytes, size, foreign, foreignBytes, grams } = header;
  if (![bytes, size, foreign, foreignBytes].every((n) => Number.isInteger(n) && n >= 0)) {
    return null;
  }
  const upperBytes = (bytes + 7) >> 3;
  let offset = padded(MAGIC.length + 4 + jsonLength);
  let expected =
    offset +
    padded(bytes) +
    padded(upperBytes) +
    2 * padded(4 * size) +
    padded(size) +
    padded(4 * foreign) +
    padded(foreignBytes);
  if (grams) {
    if (grams.covered > size) return null;
    expected +=
      2 * padded(4 * grams.codes) + padded(4 * (grams.codes + 1)) + padded(grams.postings);
  }
  if (data.length !== expected || size < 1) return null;
  const take = (length: number): number => {
    const at = data.byteOffset + offset;
    offset += padded(length);
    return at;
  };
  const buffer = data.buffer;
  return {
    folded: Buffer.from(buffer, take(bytes), bytes),
    upper: new Uint8Array(buffer, take(upperBytes), upperBytes),
    start: new Uint32Array(buffer, take(4 * size), size),
    parent: new Int32Array(buffer, take(4 * size), size),
    flags: new Uint8Array(buffer, take(size), size),
    foreignIds: new Int32Array(buffer, take(4 * foreign), foreign),
    foreignBytes: Buffer.from(buffer, take(foreignBytes), foreignBytes),
    grams: grams ? takeGrams(grams) : null,
  };

  function takeGrams(header: NonNullable<Header['grams']>): GramParts {
    const { covered, codes, postings } = header;
    return {
      covered,
      codes: new Uint32Array(buffer, take(4 * codes), codes),
      counts: new Uint32Array(buffer, take(4 * codes), codes),
      starts: new Uint32Array(buffer, take(4 * (codes + 1)), codes + 1),
      postings: new Uint8Array(buffer, take(postings), postings),
    };
  }
}
