/**
 * Test helpers for archives: a sample tree on disk, a snapshot to compare trees byte for byte, and
 * unpacking with the real command-line tools (plus an independent Snappy framing decoder, since
 * no .sz CLI ships with Debian).
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ArchiveEntry } from '../../src/archive/archive-entry.ts';

export { bufferFile as memoryFile } from '../../src/streams/file-copy.ts';

const run = promisify(execFile);

/** A name longer than tar's 100-byte ustar field, so pax headers get exercised. */
export const LONG_NAME = `${'long-name-'.repeat(14)}end.txt`;

/**
 * Writes a tree with nested folders, an empty folder, UTF-8 names, a 0-byte file, an executable,
 * a long name and a few MB of random plus compressible data. Returns nothing: use snapshotTree.
 */
export async function makeSampleTree(dir: string, randomSize = 3 * 1024 * 1024): Promise<void> {
  await mkdir(path.join(dir, 'docs/deeper/deepest'), { recursive: true });
  await mkdir(path.join(dir, 'empty folder'), { recursive: true });
  await mkdir(path.join(dir, 'ünïcødé 文件夹'), { recursive: true });
  await writeFile(path.join(dir, 'docs/readme.txt'), 'hello archive\n'.repeat(5000));
  await writeFile(path.join(dir, 'docs/deeper/deepest/leaf.md'), '# leaf\n');
  await writeFile(path.join(dir, 'docs/deeper/zero.bin'), '');
  await writeFile(path.join(dir, 'ünïcødé 文件夹/日本語 😀.txt'), 'こんにちは\n');
  await writeFile(path.join(dir, 'random.bin'), randomBytes(randomSize));
  await writeFile(path.join(dir, LONG_NAME), 'long\n');
  await writeFile(path.join(dir, 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(path.join(dir, 'run.sh'), 0o755);
  const when = new Date('2024-05-01T10:11:12Z');
  await utimes(path.join(dir, 'docs/readme.txt'), when, when);
}

export interface SnapshotItem {
  kind: 'dir' | 'file';
  sha256?: string;
  size?: number;
  executable?: boolean;
}

/** Every path under `dir` (relative, '/'-separated) with its kind and content hash. */
export async function snapshotTree(dir: string): Promise<Map<string, SnapshotItem>> {
  const result = new Map<string, SnapshotItem>();
  async function walk(rel: string): Promise<void> {
    for (const dirent of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${dirent.name}` : dirent.name;
      const full = path.join(dir, child);
      if (dirent.isDirectory()) {
        result.set(child, { kind: 'dir' });
        await walk(child);
      } else {
        const info = await stat(full);
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(full)) hash.update(chunk as Buffer);
        result.set(child, {
          kind: 'file',
          sha256: hash.digest('hex'),
          size: info.size,
          executable: (info.mode & 0o100) !== 0,
        });
      }
    }
  }
  await walk('');
  return result;
}

/** Walks a real folder into archive entries (what the service does through ScopedFs). */
export async function* entriesOf(dir: string, prefix = ''): AsyncGenerator<ArchiveEntry> {
  const dirents = await readdir(path.join(dir, prefix), { withFileTypes: true });
  dirents.sort((a, b) => a.name.localeCompare(b.name));
  for (const dirent of dirents) {
    const name = prefix ? `${prefix}/${dirent.name}` : dirent.name;
    const full = path.join(dir, name);
    const info = await stat(full);
    yield {
      name,
      isDir: dirent.isDirectory(),
      size: info.size,
      mtime: info.mtime,
      mode: info.mode & 0o7777,
      open: () => open(full),
    };
    if (dirent.isDirectory()) yield* entriesOf(dir, name);
  }
}

/** The decompressor command for each archive extension (gzip's for .tar.gz, and so on). */
const DECOMPRESSORS: Record<string, string | undefined> = {
  '.tar': undefined,
  '.tar.gz': 'gzip -dc',
  '.tar.bz2': 'bzip2 -dc',
  '.tar.xz': 'xz -dc',
  '.tar.lz4': 'lz4 -dc',
  '.tar.br': 'brotli -dc',
  '.tar.zst': 'zstd -dc',
};

/**
 * Unpacks `archive` into `dest` with the real tools: unzip for .zip, the format's own decompressor
 * piped into tar for the others, and the independent Snappy decoder below for .tar.sz.
 */
export async function unpackArchive(
  archive: string,
  extension: string,
  dest: string,
): Promise<void> {
  await mkdir(dest, { recursive: true });
  if (extension === '.zip') {
    await run('unzip', ['-q', archive, '-d', dest]);
    return;
  }
  if (extension === '.tar.sz') {
    const tarFile = `${archive}.decoded.tar`;
    await writeFile(tarFile, decodeSnappyFramed(await readFile(archive)));
    await run('tar', ['-xf', tarFile, '-C', dest]);
    return;
  }
  const decompressor = DECOMPRESSORS[extension];
  if (decompressor === undefined) {
    await run('tar', ['-xf', archive, '-C', dest]);
    return;
  }
  await run('sh', ['-c', `${decompressor} < "$1" | tar -x -C "$2"`, 'sh', archive, dest], {
    maxBuffer: 1024 * 1024,
  });
}

// CRC-32C (Castagnoli), table-driven: written here independently of the server's library.
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function masked(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** Decodes one raw Snappy block (format_description.txt of the Snappy project). */
export function snappyDecompressBlock(input: Buffer): Buffer {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = input[pos++]!;
    length |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  const out = Buffer.alloc(length);
  let outPos = 0;
  while (pos < input.length) {
    const tag = input[pos++]!;
    const type = tag & 3;
    if (type === 0) {
      let literal = (tag >>> 2) + 1;
      if (literal > 60) {
        const bytes = literal - 60;
        literal = input.readUIntLE(pos, bytes) + 1;
        pos += bytes;
      }
      input.copy(out, outPos, pos, pos + literal);
      pos += literal;
      outPos += literal;
      continue;
    }
    let copyLength: number;
    let offset: number;
    if (type === 1) {
      copyLength = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | input[pos++]!;
    } else if (type === 2) {
      copyLength = (tag >>> 2) + 1;
      offset = input.readUInt16LE(pos);
      pos += 2;
    } else {
      copyLength = (tag >>> 2) + 1;
      offset = input.readUInt32LE(pos);
      pos += 4;
    }
    if (offset === 0 || offset > outPos) throw new Error('snappy: bad copy offset');
    for (let i = 0; i < copyLength; i++) out[outPos + i] = out[outPos - offset + i]!;
    outPos += copyLength;
  }
  if (outPos !== length) throw new Error('snappy: length mismatch');
  return out;
}

/** Decodes Snappy's framing format, checking the stream identifier and every chunk's CRC. */
export function decodeSnappyFramed(input: Buffer): Buffer {
  const identifier = Buffer.from([0xff, 0x06, 0, 0, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
  if (!input.subarray(0, 10).equals(identifier)) throw new Error('sz: missing stream identifier');
  const parts: Buffer[] = [];
  let pos = 10;
  while (pos < input.length) {
    const type = input[pos]!;
    const length = input.readUIntLE(pos + 1, 3);
    const body = input.subarray(pos + 4, pos + 4 + length);
    pos += 4 + length;
    if (type === 0xff) continue;
    if (type !== 0 && type !== 1) throw new Error(`sz: unexpected chunk type ${type}`);
    const data = type === 0 ? snappyDecompressBlock(body.subarray(4)) : body.subarray(4);
    if (data.length > 65536) throw new Error('sz: chunk larger than 64 KiB');
    if (masked(crc32c(data)) !== body.readUInt32LE(0)) throw new Error('sz: CRC mismatch');
    parts.push(data);
  }
  return Buffer.concat(parts);
}
