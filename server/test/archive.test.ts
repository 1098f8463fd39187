import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../src/archive/archive-entry.ts';
import { cleanEntryName } from '../src/archive/archive-entry.ts';
import { ARCHIVE_FORMATS, archiveFormat } from '../src/archive/archive-formats.ts';
import { Lz4Framer } from '../src/archive/lz4-framer.ts';
import { writeArchive } from '../src/archive/write-archive.ts';
import {
  entriesOf,
  makeSampleTree,
  memoryFile,
  snapshotTree,
  unpackArchive,
} from './helpers/archive-tree.ts';

const run = promisify(execFile);

let base: string;
let source: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-archive-'));
  source = path.join(base, 'source');
  // 9 MiB of random data: more than twice the archive's four 1 MiB read buffers, so a buffer is
  // used again while a compressor may still hold the bytes it had (write-archive.ts).
  await makeSampleTree(source, 9 * 1024 * 1024);
  // A backslash is a separator to Windows unpackers: it must come out as `_`.
  await writeFile(path.join(source, 'back\\slash.txt'), 'sneaky\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The source tree as an unpacked archive must look: the backslash name neutralised. */
async function expectedTree() {
  const expected = await snapshotTree(source);
  const backslash = expected.get('back\\slash.txt')!;
  expected.delete('back\\slash.txt');
  expected.set('back_slash.txt', backslash);
  return Object.fromEntries(expected);
}

async function archiveTo(file: string, algo: string, entries: AsyncIterable<ArchiveEntry>) {
  await writeArchive(archiveFormat(algo), entries, createWriteStream(file));
}

describe('writeArchive', () => {
  for (const format of ARCHIVE_FORMATS.values()) {
    it(`packs a tree as ${format.extension} that the real tool unpacks byte for byte`, async () => {
      const file = path.join(base, `out${format.extension}`);
      await archiveTo(file, format.algo, entriesOf(source));
      const dest = path.join(base, `unpacked-${format.algo}`);
      await unpackArchive(file, format.extension, dest);

      const actual = await snapshotTree(dest);
      expect(Object.fromEntries(actual)).toEqual(await expectedTree());

      const readme = await stat(path.join(dest, 'docs/readme.txt'));
      expect(readme.mtime.toISOString()).toBe('2024-05-01T10:11:12.000Z');
    });
  }

  it('stores zip entries with CRC-32s, modes and UTF-8 names that unzip verifies', async () => {
    const file = path.join(base, 'methods.zip');
    await archiveTo(file, 'zip', entriesOf(source));
    const listing = (await run('unzip', ['-v', file])).stdout;
    const methodOf = (name: string) =>
      listing
        .split('\n')
        .find((line) => line.endsWith(` ${name}`))
        ?.trim()
        .split(/\s+/)[1];
    // Stored, not deflated: folder downloads are bounded by disk and network, not by one core.
    expect(methodOf('docs/readme.txt')).toBe('Stored');
    expect(methodOf('random.bin')).toBe('Stored');
    // -t recomputes every CRC-32 against the data descriptors.
    const tested = await run('unzip', ['-t', file]);
    expect(tested.stdout).toMatch(/No errors detected/);
    const details = (await run('zipinfo', [file])).stdout;
    expect(details).toMatch(/-rw-r--r--.*docs\/readme\.txt/);
    expect(details).toMatch(/drwx.*docs\//);
  });

  it.each([
    ['.tar.gz', 'gzip -dc', () => zlib.createGzip({ level: 2 })],
    ['.tar.lz4', 'lz4 -dc', () => new Lz4Framer()],
  ])('has an in-process %s compressor the real tool reads', async (extension, _tool, make) => {
    const file = path.join(base, `in-process${extension}`);
    const tar = path.join(base, `in-process${extension}.tar`);
    await writeArchive(archiveFormat('tar'), entriesOf(source), createWriteStream(tar));
    await pipeline(createReadStream(tar), make(), createWriteStream(file));
    const dest = path.join(base, `in-process-${extension}`);
    await unpackArchive(file, extension, dest);
    expect(Object.fromEntries(await snapshotTree(dest))).toEqual(await expectedTree());
  });

  it('answers 501 when a format needs a program the host lacks', async () => {
    const format = {
      ...archiveFormat('tarxz'),
      compressor: { programs: [{ command: 'no-such-xz-program', args: [] }] },
    };
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await expect(writeArchive(format, entriesOf(source), sink)).rejects.toMatchObject({
      status: 501,
    });
  });

  it('fails the archive when the compressor program fails', async () => {
    const format = {
      ...archiveFormat('tarxz'),
      compressor: { programs: [{ command: 'xz', args: ['--no-such-option'] }] },
    };
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await expect(writeArchive(format, entriesOf(source), sink)).rejects.toThrow(/xz exited with/);
  });

  it('answers 400 for an unknown format and treats "true" and "" as zip', () => {
    expect(archiveFormat('true').algo).toBe('zip');
    expect(archiveFormat('').algo).toBe('zip');
    expect(archiveFormat(undefined).algo).toBe('zip');
    expect(() => archiveFormat('rar')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('skips files that cannot be opened and reports them', async () => {
    const warnings: string[] = [];
    async function* entries(): AsyncGenerator<ArchiveEntry> {
      yield* entriesOf(source, 'docs');
      yield {
        name: 'gone.txt',
        isDir: false,
        size: 3,
        mtime: new Date(),
        mode: 0o644,
        open: () => Promise.reject(new Error('EACCES')),
      };
    }
    const file = path.join(base, 'skip.tar');
    await writeArchive(archiveFormat('tar'), entries(), createWriteStream(file), {
      warn: (message, entry) => warnings.push(`${message}: ${entry.name}`),
    });
    const { stdout } = await run('tar', ['-tf', file]);
    expect(stdout).toContain('docs/readme.txt');
    expect(stdout).not.toContain('gone.txt');
    expect(warnings).toEqual(['skipped an unreadable file: gone.txt']);
  });

  it('keeps the promised size when a file grows or shrinks while archived', async () => {
    const warnings: string[] = [];
    const entry = (name: string, size: number, content: string): ArchiveEntry => ({
      name,
      isDir: false,
      size,
      mtime: new Date(),
      mode: 0o644,
      open: async () => memoryFile(Buffer.from(content)),
    });
    async function* entries(): AsyncGenerator<ArchiveEntry> {
      yield entry('grew.txt', 3, 'abcdef');
      yield entry('shrank.txt', 6, 'abc');
    }
    for (const algo of ['tar', 'zip']) {
      const file = path.join(base, `sizes.${algo}`);
      await writeArchive(archiveFormat(algo), entries(), createWriteStream(file), {
        warn: (message, e) => warnings.push(`${e.name}: ${message}`),
      });
      const dest = path.join(base, `sizes-${algo}`);
      await unpackArchive(file, `.${algo}`, dest);
      const snapshot = await snapshotTree(dest);
      expect(snapshot.get('grew.txt')?.size).toBe(3);
      expect(snapshot.get('shrank.txt')?.size).toBe(6);
    }
    expect(warnings).toContain('grew.txt: file got longer while being archived');
    expect(warnings).toContain('shrank.txt: file got shorter while being archived');
  });

  it.each([['../evil.txt'], ['/etc/passwd'], ['a/../../b'], ['a//b'], ['./a'], ['C:/x'], ['a\0b']])(
    'aborts the archive on the unclean entry name %j',
    async (name) => {
      async function* entries(): AsyncGenerator<ArchiveEntry> {
        yield {
          name: 'ok.txt',
          isDir: false,
          size: 2,
          mtime: new Date(),
          mode: 0o644,
          open: async () => memoryFile(Buffer.from('ok')),
        };
        yield {
          name,
          isDir: false,
          size: 1,
          mtime: new Date(),
          mode: 0o644,
          open: async () => memoryFile(Buffer.from('x')),
        };
      }
      for (const algo of ['zip', 'tar']) {
        const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
        await expect(writeArchive(archiveFormat(algo), entries(), sink)).rejects.toThrow(
          /unclean archive entry name/,
        );
      }
    },
  );

  it('turns backslashes into underscores and keeps clean names as they are', () => {
    expect(cleanEntryName('a\\..\\b')).toBe('a_.._b');
    expect(cleanEntryName('dir/ünï cødé.txt')).toBe('dir/ünï cødé.txt');
    expect(cleanEntryName('..foo/bar..')).toBe('..foo/bar..');
  });

  it('stops reading and kills the compressor program when aborted mid-stream', async () => {
    let opened = 0;
    let destroyed = 0;
    async function* endless(): AsyncGenerator<ArchiveEntry> {
      for (let i = 0; ; i++) {
        yield {
          name: `file-${i}.bin`,
          isDir: false,
          size: 8 * 1024 * 1024,
          mtime: new Date(),
          mode: 0o644,
          open: async () => {
            opened++;
            return memoryFile(randomBytes(8 * 1024 * 1024), () => destroyed++);
          },
        };
      }
    }
    const controller = new AbortController();
    let received = 0;
    let openedAtAbort = 0;
    const sink = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > 256 * 1024 && !controller.signal.aborted) {
          openedAtAbort = opened;
          controller.abort(new Error('client went away'));
        }
        // A slow client: backpressure must hold the writer back.
        setTimeout(callback, 1);
      },
    });
    const before = await childPids();
    await expect(
      writeArchive(archiveFormat('tarbz2'), endless(), sink, { signal: controller.signal }),
    ).rejects.toThrow();
    // Incompressible data: the compressor holds a few MiB, so only a few files were ever opened,
    // and none after the abort.
    expect(opened).toBeLessThan(8);
    expect(opened).toBe(openedAtAbort);
    // Every opened file is closed and the compressor is gone, once the streams have wound down:
    // waited for as conditions (a file left open or a compressor left running never gets there).
    let leftover: string[] = [];
    for (;;) {
      leftover = [...(await childPids())].filter((pid) => !before.has(pid));
      if (destroyed === opened && leftover.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(destroyed).toBe(opened);
    expect(leftover).toEqual([]);
  });
});

/** Process ids of this process's children still alive (zombies excluded). */
async function childPids(): Promise<Set<string>> {
  const { stdout } = await run('ps', [
    '-o',
    'pid=,stat=,comm=',
    '--ppid',
    String(process.pid),
  ]).catch(() => ({ stdout: '' }));
  return new Set(
    stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, state, command]) => pid && !state?.startsWith('Z') && command !== 'ps')
      .map(([pid]) => pid!),
  );
}
