import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import yazl from 'yazl';
import { cleanEntryName, type ArchiveWarning } from './archive-entry.ts';
import { exactLength } from './exact-length.ts';
import { abortable } from './stream-waits.ts';
import type { ContainerSource } from './tar-writer.ts';

/**
 * Deflate level for zip entries. Level 1 keeps most of the size saving of the default (6) at a
 * much higher speed; archives are made on the fly, so speed wins.
 */
const ZIP_DEFLATE_LEVEL = 1;

/** Extensions whose content is already compressed: stored as-is instead of deflated again. */
const STORED_EXTENSIONS = new Set([
  '7z', 'aac', 'apk', 'avif', 'br', 'bz2', 'docx', 'epub', 'flac', 'gif', 'gz', 'heic', 'jar',
  'jpeg', 'jpg', 'lz4', 'm4a', 'm4v', 'mkv', 'mov', 'mp3', 'mp4', 'odp', 'ods', 'odt', 'ogg',
  'opus', 'png', 'pptx', 'rar', 'sz', 'tgz', 'webm', 'webp', 'xlsx', 'xz', 'zip', 'zst',
]); // prettier-ignore

function isAlreadyCompressed(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') && STORED_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

const deflateRaw = promisify(zlib.deflateRaw);
/** Bytes of a file test-compressed to decide between deflate and store. */
const SAMPLE_SIZE = 64 * 1024;
/** Deflate is kept when the sample shrinks to less than this fraction. */
const WORTHWHILE_RATIO = 0.9;

/** The first chunks of a file, read ahead, and an iterator over the whole content. */
interface Sampled {
  head: Buffer;
  content: AsyncIterable<Buffer>;
}

async function sampleHead(source: Readable): Promise<Sampled> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < SAMPLE_SIZE) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  async function* content(): AsyncGenerator<Buffer> {
    try {
      yield* chunks;
      if (ended) return;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  return { head: Buffer.concat(chunks, length).subarray(0, SAMPLE_SIZE), content: content() };
}

/**
 * Deflating incompressible data (media, archives, encrypted or random bytes) costs most of the
 * time of a zip download and saves nothing: such files are stored. Known extensions decide at
 * once; other files by test-compressing their first 64 KiB.
 */
async function deflateLevelFor(name: string, head: Buffer): Promise<number> {
  if (isAlreadyCompressed(name) || head.length === 0) return 0;
  const compressed = await deflateRaw(head, { level: ZIP_DEFLATE_LEVEL });
  return compressed.length < head.length * WORTHWHILE_RATIO ? ZIP_DEFLATE_LEVEL : 0;
}

/**
 * A zip stream (yazl): UTF-8 names, extended timestamps, ZIP64 when sizes need it. Entries are
 * handed to yazl one at a time, each after the previous one's content was consumed, so only the
 * central directory (a few dozen bytes per entry, which zip needs at its end) grows with the count.
 */
export function zipSource(warn: ArchiveWarning): ContainerSource {
  const zip = new yazl.ZipFile();
  const failed = new Promise<never>((_resolve, reject) => {
    zip.on('error', (error: Error) => reject(error));
  });
  failed.catch(() => undefined);
  return {
    stream: zip.outputStream as Readable,
    async fill(entries, signal) {
      for await (const entry of entries) {
        signal.throwIfAborted();
        const name = cleanEntryName(entry.name);
        const options = {
          mtime: entry.mtime,
          mode: (entry.mode & 0o7777) | (entry.isDir ? 0o040000 : 0o100000),
        };
        if (entry.isDir) {
          zip.addEmptyDirectory(name, options);
          continue;
        }
        let content: Readable;
        try {
          content = await entry.open();
        } catch (error) {
          warn('skipped an unreadable file', entry, error);
          continue;
        }
        try {
          await addFile(zip, name, options, entry.size, content, signal, failed, (kind) =>
            warn(`file got ${kind} while being archived`, entry),
          );
        } finally {
          content.destroy();
        }
      }
      signal.throwIfAborted();
      zip.end();
    },
  };
}

/** Adds one file to the zip and waits until yazl has consumed its content. */
async function addFile(
  zip: yazl.ZipFile,
  name: string,
  options: { mtime: Date; mode: number },
  size: number,
  content: Readable,
  signal: AbortSignal,
  failed: Promise<never>,
  onMismatch: (kind: 'longer' | 'shorter') => void,
): Promise<void> {
  const sampled = await abortable(sampleHead(content), signal);
  const compressionLevel = await deflateLevelFor(name, sampled.head);
  const exact = Readable.from(exactLength(sampled.content, size, onMismatch), {
    objectMode: false,
  });
  const consumed = new Promise<void>((resolve, reject) => {
    exact.once('end', resolve);
    exact.once('error', reject);
  });
  zip.addReadStream(exact, name, { ...options, size, compressionLevel });
  try {
    await abortable(Promise.race([consumed, failed]), signal);
  } finally {
    exact.destroy();
  }
}
