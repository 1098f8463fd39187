import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BoltFormatError, childBucket, readBolt, valueOf, type BoltBucket } from './bolt-reader.ts';
import { META_CHECKSUMMED, PAGE_HEADER_SIZE, fnv1a64 } from './bolt-format.ts';
import {
  bucket,
  writeBolt,
  type BoltWriteOptions,
  type WriterBucket,
} from './bolt-writer.fixture.ts';
import { REAL_FIXTURES } from './filebrowser-db.fixture.ts';
import { seededRandom } from '../../testing/seeded-random.ts';

const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString() : undefined);
const real = (name: string) => readFileSync(new URL(name, REAL_FIXTURES));

/** The bucket as plain data: values as text, buckets nested, to compare with what was written. */
function plain(b: BoltBucket): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of b.values) out[Buffer.from(key).toString('hex')] = text(value);
  for (const { name, bucket: child } of b.buckets) {
    out[`[${Buffer.from(name).toString('hex')}]`] = plain(child);
  }
  return out;
}

function expected(b: WriterBucket): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of b.entries) {
    const hex = Buffer.from(key).toString('hex');
    if (typeof value === 'object' && 'kind' in value) out[`[${hex}]`] = expected(value);
    else out[hex] = Buffer.from(value).toString();
  }
  return out;
}

/** Reads and reports the outcome; any error but BoltFormatError fails the test that calls it. */
function outcome(bytes: Uint8Array): 'read' | 'refused' {
  try {
    readBolt(bytes);
    return 'read';
  } catch (error) {
    if (error instanceof BoltFormatError) return 'refused';
    throw error;
  }
}

/** A tree that needs every structure: many keys, big values, inline and paged nested buckets. */
function richTree(): WriterBucket {
  const many = bucket(
    Array.from({ length: 300 }, (_, i) => [`key-${String(i).padStart(4, '0')}`, `value ${i}`]),
  );
  return bucket([
    ['many', many],
    [
      'big',
      bucket([
        ['blob', 'x'.repeat(20_000)],
        ['small', 'y'],
      ]),
    ],
    ['tiny', bucket([['a', '1']])],
    ['empty', bucket([])],
    [
      'outer',
      bucket([
        ['middle', bucket([['inner', bucket([['deep', 'leaf']])]])],
        [Buffer.from([0, 0, 0, 0, 0, 0, 0, 9]), 'binary key'],
      ]),
    ],
  ]);
}

describe('the BoltDB reader on files filebrowser wrote', () => {
  it.each(['json-auth-admin.db', 'hook-auth-admin.db'])(
    'reads %s: users, config and storm metadata',
    (name) => {
      const root = readBolt(real(name));
      expect(root.buckets.map((b) => text(b.name))).toEqual(['User', '__storm_db', 'config']);
      const users = childBucket(root, 'User')!;
      expect(users.values).toHaveLength(1);
      expect(Buffer.from(users.values[0]!.key).readBigUInt64BE(0)).toBe(1n);
      expect(JSON.parse(text(users.values[0]!.value)!)).toMatchObject({
        id: 1,
        username: 'admin',
        password: expect.stringMatching(/^\$2a\$10\$/),
      });
      expect(users.buckets.map((b) => text(b.name))).toEqual([
        '__storm_index_ID',
        '__storm_index_Username',
        '__storm_metadata',
      ]);
      const config = childBucket(root, 'config')!;
      expect(JSON.parse(text(valueOf(config, 'server'))!)).toMatchObject({ root: '/srv' });
      expect(text(valueOf(config, 'version'))).toBe('2');
    },
  );
});

describe('the BoltDB reader on files of the test writer', () => {
  const layouts: [string, BoltWriteOptions][] = [
    ['default layout', {}],
    ['small leaves and branches (a deep tree)', { maxLeafEntries: 3, maxBranchEntries: 2 }],
    ['no inline buckets', { inline: false }],
    ['16 KiB pages', { pageSize: 16384 }],
    ['1 KiB pages', { pageSize: 1024, maxLeafEntries: 4 }],
    ['no freelist page', { freelist: false }],
    ['the newer meta on page 0', { newerMeta: 0, txid: 9 }],
    ['spare pages at the end', { spareDataPages: 5 }],
  ];
  it.each(layouts)('reads back what it wrote: %s', (_name, options) => {
    const tree = richTree();
    expect(plain(readBolt(writeBolt(tree, options)))).toEqual(expected(tree));
  });

  it('writes branch pages, overflow pages and inline buckets when asked, as bbolt does', () => {
    const file = Buffer.from(writeBolt(richTree(), { maxLeafEntries: 3, maxBranchEntries: 2 }));
    const pages = file.length / 4096;
    const flags = Array.from({ length: pages }, (_, i) => file.readUInt16LE(i * 4096 + 8));
    expect(flags).toContain(0x01);
    const overflow = Array.from({ length: pages }, (_, i) => file.readUInt32LE(i * 4096 + 12));
    expect(Math.max(...overflow)).toBeGreaterThan(0);
    // The one-key bucket is inline: its leaf value starts with a zero root page id.
    const root = readBolt(file);
    expect(childBucket(root, 'tiny')?.values).toHaveLength(1);
    expect(Buffer.from(file).indexOf(Buffer.from('tiny'))).toBeGreaterThan(0);
  });

  it('takes the meta page with the higher transaction id', () => {
    for (const newer of [0, 1] as const) {
      const pristine = writeBolt(richTree(), { newerMeta: newer, txid: 7 });
      // A sealed meta page whose root is the freelist page: only a reader following it fails.
      const misdirect = (n: number) => {
        const file = Buffer.from(pristine);
        file.writeBigUInt64LE(2n, n * 4096 + PAGE_HEADER_SIZE + 16);
        reseal(file, n * 4096 + PAGE_HEADER_SIZE);
        return file;
      };
      expect(outcome(misdirect(1 - newer))).toBe('read');
      expect(outcome(misdirect(newer))).toBe('refused');
    }
  });
});

/** A small database and the offsets its corruptions need. */
function smallDb(options: BoltWriteOptions = {}) {
  const file = Buffer.from(
    writeBolt(
      bucket([
        ['User', bucket(Array.from({ length: 40 }, (_, i) => [`user-${i}`, `{"id":${i}}`]))],
        ['config', bucket([['settings', '{}']])],
      ]),
      { maxLeafEntries: 8, ...options },
    ),
  );
  const meta = (n: 0 | 1) => n * 4096 + PAGE_HEADER_SIZE;
  const rootPage = Number(file.readBigUInt64LE(meta(1) + 16));
  return { file, meta, rootPage };
}

/** Rewrites a meta page's checksum after changing it, so that only the change is tested. */
function reseal(file: Buffer, metaOffset: number) {
  file.writeBigUInt64LE(
    fnv1a64(file.subarray(metaOffset, metaOffset + META_CHECKSUMMED)),
    metaOffset + META_CHECKSUMMED,
  );
}

describe('the BoltDB reader refuses what breaks the format', () => {
  it('falls back to the older meta page when the newer one is damaged', () => {
    const { file, meta } = smallDb();
    const flip = (at: number) => file.writeUInt8(file.readUInt8(at) ^ 0xff, at);
    flip(meta(1) + 30); // The root page id of meta 1, with its checksum now wrong.
    expect(outcome(file)).toBe('read');
    flip(meta(0) + 30);
    expect(() => readBolt(file)).toThrow('damaged BoltDB file: both meta pages fail their checks');
  });

  const cases: [string, (db: ReturnType<typeof smallDb>) => Uint8Array, RegExp][] = [
    ['an empty file', () => new Uint8Array(), /^the file is empty$/],
    ['a text file', () => Buffer.from('{"users": []}\n'.repeat(200)), /^not a BoltDB file/],
    ['an SQLite file', () => Buffer.from(`SQLite format 3\0${'\0'.repeat(8000)}`), /^not a BoltDB/],
    [
      'another version',
      ({ file, meta }) => {
        for (const n of [0, 1] as const) {
          file.writeUInt32LE(1, meta(n) + 4);
          reseal(file, meta(n));
        }
        return file;
      },
      /^unsupported BoltDB version 1$/,
    ],
    [
      'a truncated copy',
      ({ file }) => file.subarray(0, file.length - 4096),
      /^truncated BoltDB file: \d+ bytes, but its pages need \d+/,
    ],
    [
      'a page that carries another id',
      ({ file, rootPage }) => {
        file.writeBigUInt64LE(BigInt(rootPage + 1), rootPage * 4096);
        return file;
      },
      /carries another page's id/,
    ],
    [
      'a root page past the high water mark',
      ({ file, meta }) => {
        for (const n of [0, 1] as const) {
          file.writeBigUInt64LE(file.readBigUInt64LE(meta(n) + 40) - 1n, meta(n) + 40);
          reseal(file, meta(n));
        }
        return file;
      },
      /both meta pages fail|outside the database/,
    ],
    [
      'a branch that points at itself',
      ({ file }) => {
        // The User bucket's tree has a branch page: make its first child the branch itself.
        const branch = findBranch(file);
        file.writeBigUInt64LE(BigInt(branch), branch * 4096 + PAGE_HEADER_SIZE + 8);
        return file;
      },
      /page \d+ is reached twice/,
    ],
    [
      'more elements than the page holds',
      ({ file, rootPage }) => {
        file.writeUInt16LE(0xffff, rootPage * 4096 + 10);
        return file;
      },
      /lists more elements than it holds/,
    ],
    [
      'a value that runs past its page',
      ({ file }) => {
        const leaf = findLeaf(file);
        file.writeUInt32LE(0xffffffff, leaf * 4096 + PAGE_HEADER_SIZE + 12);
        return file;
      },
      /lies outside it/,
    ],
    [
      'an overflow past the end',
      ({ file }) => {
        const leaf = findLeaf(file);
        file.writeUInt32LE(1000, leaf * 4096 + 12);
        return file;
      },
      /overflows the database/,
    ],
    [
      'a bucket rooted at the freelist page',
      ({ file, meta }) => {
        for (const n of [0, 1] as const) {
          file.writeBigUInt64LE(2n, meta(n) + 16);
          reseal(file, meta(n));
        }
        return file;
      },
      /should hold a bucket's keys but is of kind 16/,
    ],
  ];
  it.each(cases)('%s is one clear error', (_name, corrupt, message) => {
    const bytes = corrupt(smallDb());
    let thrown: unknown;
    try {
      readBolt(bytes);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BoltFormatError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('refuses an inline bucket that holds a bucket, and one cut short', () => {
    const inner = writeBolt(bucket([['b', bucket([['k', 'v']])]]));
    const file = Buffer.from(inner);
    const at = file.indexOf(Buffer.from('kv'));
    // The inline page's element sits 16 bytes before its key; its flags are its first field.
    const element = at - 16;
    file.writeUInt32LE(1, element);
    expect(() => readBolt(file)).toThrow(/inline bucket (holds a bucket|is cut short)/);
  });

  it('refuses buckets nested deeper than any real file', () => {
    let tree = bucket([['leaf', 'x']]);
    for (let i = 0; i < 70; i++) tree = bucket([[`level-${i}`, tree]]);
    expect(() => readBolt(writeBolt(tree, { inline: false }))).toThrow(/nesting too deep/);
  });
});

/** The first branch page of a file. */
function findBranch(file: Buffer): number {
  for (let id = 2; id * 4096 < file.length; id++) {
    if (file.readUInt16LE(id * 4096 + 8) === 0x01) return id;
  }
  throw new Error('no branch page');
}

/** The first leaf page with elements. */
function findLeaf(file: Buffer): number {
  for (let id = 2; id * 4096 < file.length; id++) {
    if (file.readUInt16LE(id * 4096 + 8) === 0x02 && file.readUInt16LE(id * 4096 + 10) > 0) {
      return id;
    }
  }
  throw new Error('no leaf page');
}

describe('the BoltDB reader under fuzzing', () => {
  it('gives a clear error for every truncation of a real file, never a crash', () => {
    const file = real('json-auth-admin.db');
    // Its meta pages say 10 pages are in use; the 6 after them are spare.
    const used = 10 * 4096;
    for (let length = 0; length <= file.length; length += 61) {
      expect(outcome(file.subarray(0, length))).toBe(length >= used ? 'read' : 'refused');
    }
  });

  it('reads or refuses random bytes, never throws anything else', () => {
    const next = seededRandom(25); // a failing case can be replayed
    for (let run = 0; run < 300; run++) {
      const bytes = new Uint8Array(Math.floor(next() * 3 * 4096));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      expect(outcome(bytes)).toBe('refused');
    }
  });

  it('reads or refuses a valid file with random damage, never throws anything else', () => {
    const next = seededRandom(2025);
    const pristine = writeBolt(richTree(), { maxLeafEntries: 5, maxBranchEntries: 3 });
    const seen = new Set<string>();
    for (let run = 0; run < 1500; run++) {
      const bytes = Uint8Array.from(pristine);
      const edits = 1 + Math.floor(next() * 8);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * bytes.length);
        // Hit headers and elements more often than the zeros between them.
        const inPage = at % 4096 < 256 ? at : Math.floor(at / 4096) * 4096 + (at % 256);
        bytes[inPage] = next() < 0.5 ? bytes[inPage]! ^ (1 << Math.floor(next() * 8)) : 0xff;
      }
      seen.add(outcome(bytes));
    }
    // Both happen: damage in unused bytes is harmless, damage in structure is refused.
    expect(seen).toEqual(new Set(['read', 'refused']));
  });

  it('refuses random page headers with huge counts and sizes without allocating for them', () => {
    const next = seededRandom(7);
    for (let run = 0; run < 500; run++) {
      const { file, rootPage } = smallDb();
      const at = rootPage * 4096;
      file.writeUInt16LE(Math.floor(next() * 0x10000), at + 10);
      file.writeUInt32LE(Math.floor(next() * 0x100000000), at + 12);
      file.writeUInt32LE(Math.floor(next() * 0x100000000), at + PAGE_HEADER_SIZE + 4);
      file.writeUInt32LE(Math.floor(next() * 0x100000000), at + PAGE_HEADER_SIZE + 8);
      expect(outcome(file)).toMatch(/read|refused/);
    }
  });
});
