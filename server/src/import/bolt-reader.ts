import {
  BOLT_MAGIC,
  BOLT_VERSION,
  BRANCH_ELEMENT_SIZE,
  BRANCH_PAGE,
  BUCKET_HEADER_SIZE,
  BUCKET_LEAF_FLAG,
  LEAF_ELEMENT_SIZE,
  LEAF_PAGE,
  MAX_PAGE_SIZE,
  META_CHECKSUMMED,
  META_PAGE,
  META_SIZE,
  MIN_PAGE_SIZE,
  NO_FREELIST,
  PAGE_HEADER_SIZE,
  fnv1a64,
} from './bolt-format.ts';

/**
 * A file that is not a BoltDB database, or one whose structure breaks the format's invariants
 * (truncated, damaged, hostile). The message is one line meant for the person running the import.
 */
export class BoltFormatError extends Error {
  override name = 'BoltFormatError';
}

/** One key and its value in a bucket. Both are views into the file's bytes, never copies. */
export interface BoltEntry {
  key: Uint8Array;
  value: Uint8Array;
}

/** A bucket as read: its plain values and its nested buckets, each in key order. */
export interface BoltBucket {
  values: BoltEntry[];
  buckets: { name: Uint8Array; bucket: BoltBucket }[];
}

/** Buckets nest and B+trees deepen far less than this in any real file; deeper means hostile. */
const MAX_DEPTH = 64;

interface Meta {
  pageSize: number;
  rootPage: number;
  highWater: number;
  txid: bigint;
}

interface Page {
  id: number;
  flags: number;
  count: number;
  /** The whole page with its overflow pages, header included. */
  bytes: Uint8Array;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A u64 that must be a usable page id; anything past 2^53 is out of any file's range anyway. */
function pageId(data: DataView, offset: number, what: string): number {
  const value = data.getBigUint64(offset, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new BoltFormatError(`${what} is out of range`);
  return Number(value);
}

/** Why the bytes at `offset` are not a usable meta page, or the meta they hold. */
function readMeta(bytes: Uint8Array, offset: number, expectedId: number): Meta | string {
  if (offset + PAGE_HEADER_SIZE + META_SIZE > bytes.length) return 'too short';
  const data = view(bytes.subarray(offset, offset + PAGE_HEADER_SIZE + META_SIZE));
  const m = PAGE_HEADER_SIZE;
  if (data.getUint32(m, true) !== BOLT_MAGIC) return 'magic';
  const version = data.getUint32(m + 4, true);
  if (version !== BOLT_VERSION) return `unsupported BoltDB version ${version}`;
  const stored = data.getBigUint64(m + META_CHECKSUMMED, true);
  const sum = fnv1a64(bytes.subarray(offset + m, offset + m + META_CHECKSUMMED));
  if (stored !== sum) return 'checksum';
  if (data.getBigUint64(0, true) !== BigInt(expectedId)) return 'checksum';
  if ((data.getUint16(8, true) & META_PAGE) === 0) return 'checksum';
  const pageSize = data.getUint32(m + 8, true);
  if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE) return `page size ${pageSize}`;
  const rootPage = data.getBigUint64(m + 16, true);
  const freelist = data.getBigUint64(m + 32, true);
  const highWater = data.getBigUint64(m + 40, true);
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  if (highWater > limit || highWater < 3n) return 'high water mark';
  if (rootPage < 2n || rootPage >= highWater) return 'root page';
  if (freelist !== NO_FREELIST && (freelist < 2n || freelist >= highWater)) return 'freelist page';
  return {
    pageSize,
    rootPage: Number(rootPage),
    highWater: Number(highWater),
    txid: data.getBigUint64(m + 48, true),
  };
}

/** Page sizes tried for the second meta page when the first is unreadable. */
const PAGE_SIZE_GUESSES = [4096, 16384, 65536, 8192, 32768, 1024, 2048, 512];

/** The newest valid meta page, or a one-line reason why the file cannot be read. */
function chooseMeta(bytes: Uint8Array): Meta {
  if (bytes.length < PAGE_HEADER_SIZE + META_SIZE) {
    throw new BoltFormatError(
      bytes.length === 0 ? 'the file is empty' : 'not a BoltDB file (too short)',
    );
  }
  const first = readMeta(bytes, 0, 0);
  const offsets = typeof first === 'string' ? PAGE_SIZE_GUESSES : [first.pageSize];
  let second: Meta | string = 'too short';
  for (const offset of offsets) {
    const found = readMeta(bytes, offset, 1);
    if (typeof found !== 'string' && found.pageSize === offset) {
      second = found;
      break;
    }
    // Keep the most telling reason: a meta page found at a wrong size, a version, a checksum.
    if (second === 'too short' || second === 'magic') {
      second = typeof found === 'string' ? found : 'page size';
    }
  }
  const valid = [first, second].filter((m): m is Meta => typeof m !== 'string');
  if (valid.length === 0) {
    const reasons = [first, second] as string[];
    if (reasons.every((r) => r === 'magic' || r === 'too short')) {
      throw new BoltFormatError('not a BoltDB file (no BoltDB header)');
    }
    const version = reasons.find((r) => r.startsWith('unsupported'));
    if (version) throw new BoltFormatError(version);
    throw new BoltFormatError('damaged BoltDB file: both meta pages fail their checks');
  }
  const meta = valid.reduce((a, b) => (b.txid > a.txid ? b : a));
  const needed = meta.highWater * meta.pageSize;
  if (needed > bytes.length) {
    throw new BoltFormatError(
      `truncated BoltDB file: ${bytes.length} bytes, but its pages need ${needed} ` +
        '(an incomplete copy?)',
    );
  }
  return meta;
}

/**
 * Reads a whole BoltDB file held in memory and returns its root bucket. Read-only and bounded:
 * every page is checked against the file's size and the meta page's high water mark, must carry
 * its own id and the expected kind, and may be reached only once (so a cycle cannot loop); every
 * element, key and value must lie inside its page; nesting is capped. Nothing is allocated from a
 * size the file states: keys and values are views of `bytes`. Throws BoltFormatError.
 */
export function readBolt(bytes: Uint8Array): BoltBucket {
  const meta = chooseMeta(bytes);
  const reader = new TreeReader(bytes, meta);
  return reader.bucketAt(meta.rootPage, 0);
}

class TreeReader {
  private readonly seen = new Set<number>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly meta: Meta,
  ) {}

  /** The bucket whose B+tree starts at page `root`. */
  bucketAt(root: number, depth: number): BoltBucket {
    const bucket: BoltBucket = { values: [], buckets: [] };
    this.walk(root, depth, bucket);
    return bucket;
  }

  private page(id: number): Page {
    const { pageSize, highWater } = this.meta;
    if (id < 2 || id >= highWater) {
      throw new BoltFormatError(`damaged BoltDB file: page ${id} is outside the database`);
    }
    if (this.seen.has(id)) {
      throw new BoltFormatError(`damaged BoltDB file: page ${id} is reached twice`);
    }
    this.seen.add(id);
    const start = id * pageSize;
    const data = view(this.bytes.subarray(start, start + PAGE_HEADER_SIZE));
    if (pageId(data, 0, `page ${id}'s id`) !== id) {
      throw new BoltFormatError(`damaged BoltDB file: page ${id} carries another page's id`);
    }
    const overflow = data.getUint32(12, true);
    if (id + overflow >= highWater) {
      throw new BoltFormatError(`damaged BoltDB file: page ${id} overflows the database`);
    }
    return {
      id,
      flags: data.getUint16(8, true),
      count: data.getUint16(10, true),
      bytes: this.bytes.subarray(start, start + (overflow + 1) * pageSize),
    };
  }

  private walk(id: number, depth: number, into: BoltBucket): void {
    if (depth > MAX_DEPTH) throw new BoltFormatError('damaged BoltDB file: nesting too deep');
    const page = this.page(id);
    if (page.flags === BRANCH_PAGE) {
      if (page.count === 0) throw new BoltFormatError(`damaged BoltDB file: empty branch ${id}`);
      for (const child of branchChildren(page)) this.walk(child, depth + 1, into);
    } else if (page.flags === LEAF_PAGE) {
      this.addLeaf(page, depth, into);
    } else {
      throw new BoltFormatError(
        `damaged BoltDB file: page ${id} should hold a bucket's keys but is of kind ${page.flags}`,
      );
    }
  }

  private addLeaf(page: Page, depth: number, into: BoltBucket): void {
    for (const element of leafElements(page)) {
      if ((element.flags & BUCKET_LEAF_FLAG) === 0) {
        into.values.push({ key: element.key, value: element.value });
      } else {
        into.buckets.push({ name: element.key, bucket: this.nested(element.value, depth + 1) });
      }
    }
  }

  /** A nested bucket from its leaf value: a root page, or an inline page after the header. */
  private nested(value: Uint8Array, depth: number): BoltBucket {
    if (depth > MAX_DEPTH) throw new BoltFormatError('damaged BoltDB file: nesting too deep');
    if (value.length < BUCKET_HEADER_SIZE) {
      throw new BoltFormatError('damaged BoltDB file: a bucket header is cut short');
    }
    const root = pageId(view(value), 0, 'a bucket root');
    if (root !== 0) return this.bucketAt(root, depth);
    const inline = value.subarray(BUCKET_HEADER_SIZE);
    if (inline.length < PAGE_HEADER_SIZE) {
      throw new BoltFormatError('damaged BoltDB file: an inline bucket is cut short');
    }
    const data = view(inline);
    const page: Page = {
      id: 0,
      flags: data.getUint16(8, true),
      count: data.getUint16(10, true),
      bytes: inline,
    };
    if (page.flags !== LEAF_PAGE) {
      throw new BoltFormatError('damaged BoltDB file: an inline bucket is not a leaf');
    }
    const bucket: BoltBucket = { values: [], buckets: [] };
    for (const element of leafElements(page)) {
      // bbolt inlines only buckets without sub-buckets; one here is damage, or a loop in disguise.
      if ((element.flags & BUCKET_LEAF_FLAG) !== 0) {
        throw new BoltFormatError('damaged BoltDB file: an inline bucket holds a bucket');
      }
      bucket.values.push({ key: element.key, value: element.value });
    }
    return bucket;
  }
}

function elementsFit(page: Page, size: number): void {
  if (PAGE_HEADER_SIZE + page.count * size > page.bytes.length) {
    throw new BoltFormatError(
      `damaged BoltDB file: page ${page.id} lists more elements than it holds`,
    );
  }
}

function branchChildren(page: Page): number[] {
  elementsFit(page, BRANCH_ELEMENT_SIZE);
  const data = view(page.bytes);
  const children: number[] = [];
  for (let i = 0; i < page.count; i++) {
    const at = PAGE_HEADER_SIZE + i * BRANCH_ELEMENT_SIZE;
    const keyStart = at + data.getUint32(at, true);
    if (keyStart + data.getUint32(at + 4, true) > page.bytes.length) {
      throw new BoltFormatError(`damaged BoltDB file: a key of page ${page.id} lies outside it`);
    }
    children.push(pageId(data, at + 8, `a child of page ${page.id}`));
  }
  return children;
}

function leafElements(page: Page): { flags: number; key: Uint8Array; value: Uint8Array }[] {
  elementsFit(page, LEAF_ELEMENT_SIZE);
  const data = view(page.bytes);
  const elements = [];
  for (let i = 0; i < page.count; i++) {
    const at = PAGE_HEADER_SIZE + i * LEAF_ELEMENT_SIZE;
    const keyStart = at + data.getUint32(at + 4, true);
    const valueStart = keyStart + data.getUint32(at + 8, true);
    const valueEnd = valueStart + data.getUint32(at + 12, true);
    if (valueEnd > page.bytes.length) {
      throw new BoltFormatError(`damaged BoltDB file: an entry of page ${page.id} lies outside it`);
    }
    elements.push({
      flags: data.getUint32(at, true),
      key: page.bytes.subarray(keyStart, valueStart),
      value: page.bytes.subarray(valueStart, valueEnd),
    });
  }
  return elements;
}

/** The nested bucket called `name`, if any. */
export function childBucket(bucket: BoltBucket, name: string): BoltBucket | undefined {
  const wanted = Buffer.from(name);
  return bucket.buckets.find((b) => wanted.equals(b.name))?.bucket;
}

/** The value stored under `key`, if any. */
export function valueOf(bucket: BoltBucket, key: string): Uint8Array | undefined {
  const wanted = Buffer.from(key);
  return bucket.values.find((e) => wanted.equals(e.key))?.value;
}
