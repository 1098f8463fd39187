import zlib from 'node:zlib';
import { writeChunk } from '../streams/file-copy.ts';
import { cleanEntryName } from './archive-entry.ts';
import { openedAhead, writeEntryContent } from './entry-content.ts';
import type { ContainerWriter } from './tar-writer.ts';

/*
 * Zip as written here (APPNOTE 6.3.x): every entry is stored, not deflated. A folder download is
 * bounded by the disk and the network, and deflate on one core runs at a small fraction of either
 * (docs/downloads.md has the figures); the tar.gz, tar.zst and other formats are there for
 * smaller downloads. Entries carry UTF-8 names (flag bit 11), the Unix mode, an extended
 * timestamp, and a data descriptor after the content with the CRC-32 computed while streaming
 * (zlib's, native). ZIP64 records appear only where sizes, offsets or the entry count need them.
 */

const FLAG_DATA_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const METHOD_STORE = 0;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Made by Unix (3), spec version 3.0: readers then honour the mode in the external attributes. */
const VERSION_MADE_BY = (3 << 8) | 30;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const MSDOS_DIRECTORY = 0x10;

/** One entry's facts kept for the central directory (~60 bytes plus the name). */
interface CentralRecord {
  name: Buffer;
  isDir: boolean;
  mode: number;
  time: number;
  date: number;
  unixTime: number;
  crc: number;
  size: number;
  offset: number;
}

/** DOS date and time fields (local time, two-second steps; 1980 is the earliest). */
function dosDateTime(mtime: Date): { date: number; time: number } {
  if (mtime.getFullYear() < 1980) return { date: (1 << 5) | 1, time: 0 };
  return {
    date: ((mtime.getFullYear() - 1980) << 9) | ((mtime.getMonth() + 1) << 5) | mtime.getDate(),
    time: (mtime.getHours() << 11) | (mtime.getMinutes() << 5) | (mtime.getSeconds() >> 1),
  };
}

/** Extended timestamp extra field (0x5455) with the modification time only. */
function timestampExtra(unixTime: number): Buffer {
  const extra = Buffer.alloc(9);
  extra.writeUInt16LE(0x5455, 0);
  extra.writeUInt16LE(5, 2);
  extra.writeUInt8(1, 4);
  extra.writeInt32LE(unixTime, 5);
  return extra;
}

/** ZIP64 extended information extra field (0x0001) holding the given 64-bit values. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return extra;
}

function localHeader(record: CentralRecord, zip64: boolean): Buffer {
  const extras = [timestampExtra(record.unixTime)];
  if (zip64) extras.push(zip64Extra([record.size, record.size]));
  const extra = Buffer.concat(extras);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  header.writeUInt16LE(FLAG_UTF8 | (record.isDir ? 0 : FLAG_DATA_DESCRIPTOR), 6);
  header.writeUInt16LE(METHOD_STORE, 8);
  header.writeUInt16LE(record.time, 10);
  header.writeUInt16LE(record.date, 12);
  // CRC and sizes follow the content in the data descriptor (zeros here, as bit 3 says).
  if (zip64) {
    header.writeUInt32LE(MAX32, 18);
    header.writeUInt32LE(MAX32, 22);
  }
  header.writeUInt16LE(record.name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, record.name, extra]);
}

function dataDescriptor(record: CentralRecord, zip64: boolean): Buffer {
  const descriptor = Buffer.alloc(zip64 ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(record.crc, 4);
  if (zip64) {
    descriptor.writeBigUInt64LE(BigInt(record.size), 8);
    descriptor.writeBigUInt64LE(BigInt(record.size), 16);
  } else {
    descriptor.writeUInt32LE(record.size, 8);
    descriptor.writeUInt32LE(record.size, 12);
  }
  return descriptor;
}

function centralHeader(record: CentralRecord): Buffer {
  const bigSize = record.size >= MAX32;
  const bigOffset = record.offset >= MAX32;
  const wide = [
    ...(bigSize ? [record.size, record.size] : []),
    ...(bigOffset ? [record.offset] : []),
  ];
  const extras = [timestampExtra(record.unixTime)];
  if (wide.length > 0) extras.push(zip64Extra(wide));
  const extra = Buffer.concat(extras);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(wide.length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  header.writeUInt16LE(FLAG_UTF8 | (record.isDir ? 0 : FLAG_DATA_DESCRIPTOR), 8);
  header.writeUInt16LE(METHOD_STORE, 10);
  header.writeUInt16LE(record.time, 12);
  header.writeUInt16LE(record.date, 14);
  header.writeUInt32LE(record.crc, 16);
  header.writeUInt32LE(bigSize ? MAX32 : record.size, 20);
  header.writeUInt32LE(bigSize ? MAX32 : record.size, 24);
  header.writeUInt16LE(record.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  const type = record.isDir ? S_IFDIR : S_IFREG;
  const external = (((type | record.mode) << 16) >>> 0) | (record.isDir ? MSDOS_DIRECTORY : 0);
  header.writeUInt32LE(external >>> 0, 38);
  header.writeUInt32LE(bigOffset ? MAX32 : record.offset, 42);
  return Buffer.concat([header, record.name, extra]);
}

/** The central directory's end: ZIP64 end record and locator when needed, then the classic one. */
function endOfCentralDirectory(count: number, start: number, size: number): Buffer {
  const zip64 = count >= MAX16 || start >= MAX32 || size >= MAX32;
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(VERSION_MADE_BY, 12);
    record.writeUInt16LE(VERSION_ZIP64, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(start), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(start + size), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(size, MAX32), 12);
  end.writeUInt32LE(Math.min(start, MAX32), 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/**
 * A zip stream of stored entries. Content goes from each file to the sink through reused buffers
 * with its CRC-32 computed on the way; only the central directory (about 60 bytes plus the name per
 * entry, which zip needs at its end) grows with the number of entries.
 */
export const writeZip: ContainerWriter = async (entries, sink, copy, warn) => {
  const { signal } = copy;
  const records: CentralRecord[] = [];
  let offset = 0;
  const write = async (chunk: Buffer) => {
    offset += chunk.length;
    await writeChunk(sink, chunk, signal);
  };
  for await (const { entry, file } of openedAhead(entries, warn)) {
    try {
      signal.throwIfAborted();
      const cleaned = cleanEntryName(entry.name);
      const record: CentralRecord = {
        name: Buffer.from(entry.isDir ? `${cleaned}/` : cleaned, 'utf8'),
        isDir: entry.isDir,
        mode: entry.mode & 0o7777,
        ...dosDateTime(entry.mtime),
        unixTime: Math.max(0, Math.min(0x7fffffff, Math.floor(entry.mtime.getTime() / 1000))),
        crc: 0,
        size: entry.isDir ? 0 : entry.size,
        offset,
      };
      if (entry.isDir) {
        await write(localHeader(record, false));
        records.push(record);
        continue;
      }
      if (!file) continue;
      const zip64 = record.size >= MAX32;
      await write(localHeader(record, zip64));
      let crc = 0;
      const onData = (chunk: Buffer) => {
        crc = zlib.crc32(chunk, crc);
      };
      await writeEntryContent(entry, file, sink, { ...copy, onData }, warn);
      offset += record.size;
      record.crc = crc;
      await write(dataDescriptor(record, zip64));
      records.push(record);
    } finally {
      await file?.close();
    }
  }
  const start = offset;
  for (const record of records) await write(centralHeader(record));
  await write(endOfCentralDirectory(records.length, start, offset - start));
};
