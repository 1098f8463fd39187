/**
 * A test-only writer of BoltDB files in the layout of bolt-format.ts, so that tests can build
 * filebrowser databases with shares, rules and many users, and stress the reader with branch
 * pages, overflow pages and inline and nested buckets. It writes one committed state (two meta
 * pages, an empty freelist, the trees); it never updates a file in place.
 */
import {
  BOLT_MAGIC,
  BOLT_VERSION,
  BRANCH_ELEMENT_SIZE,
  BRANCH_PAGE,
  BUCKET_HEADER_SIZE,
  BUCKET_LEAF_FLAG,
  FREELIST_PAGE,
  LEAF_ELEMENT_SIZE,
  LEAF_PAGE,
  META_CHECKSUMMED,
  META_PAGE,
  NO_FREELIST,
  PAGE_HEADER_SIZE,
  fnv1a64,
} from './bolt-format.ts';

export type BoltKey = string | Uint8Array;
export type BoltValue = string | Uint8Array | WriterBucket;

/** A bucket to write: its entries (values and nested buckets), in any order. */
export interface WriterBucket {
  kind: 'bucket';
  entries: [BoltKey, BoltValue][];
  sequence?: bigint;
}

/** A bucket of the given entries. */
export function bucket(entries: [BoltKey, BoltValue][], sequence = 0n): WriterBucket {
  return { kind: 'bucket', entries, sequence };
}

export interface BoltWriteOptions {
  /** Default 4096, as on the machines filebrowser runs on. */
  pageSize?: number;
  /** At most this many entries per leaf page (default: as many as fit), to force branch pages. */
  maxLeafEntries?: number;
  /** At most this many children per branch page (default: as many as fit). */
  maxBranchEntries?: number;
  /** Write small buckets without sub-buckets inline, as bbolt does (default true). */
  inline?: boolean;
  /** The txid of the newer meta page (default 2). */
  txid?: number;
  /** Which meta page is the newer one (default 1). */
  newerMeta?: 0 | 1;
  /** Whether a freelist page is written (default true); without one the meta says "none". */
  freelist?: boolean;
  /** Empty pages appended after the last page (bbolt grows files ahead of use). */
  spareDataPages?: number;
}

const bytesOf = (value: string | Uint8Array) =>
  typeof value === 'string' ? new TextEncoder().encode(value) : value;

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

interface Element {
  flags: number;
  key: Uint8Array;
  value: Uint8Array;
}

/** Writes the leaf page header and elements of `elements` into `out` (page id `id`). */
function encodeLeaf(out: Uint8Array, id: number, elements: Element[], overflow: number): void {
  const data = new DataView(out.buffer, out.byteOffset, out.byteLength);
  data.setBigUint64(0, BigInt(id), true);
  data.setUint16(8, LEAF_PAGE, true);
  data.setUint16(10, elements.length, true);
  data.setUint32(12, overflow, true);
  let cursor = PAGE_HEADER_SIZE + elements.length * LEAF_ELEMENT_SIZE;
  elements.forEach((element, i) => {
    const at = PAGE_HEADER_SIZE + i * LEAF_ELEMENT_SIZE;
    data.setUint32(at, element.flags, true);
    data.setUint32(at + 4, cursor - at, true);
    data.setUint32(at + 8, element.key.length, true);
    data.setUint32(at + 12, element.value.length, true);
    out.set(element.key, cursor);
    cursor += element.key.length;
    out.set(element.value, cursor);
    cursor += element.value.length;
  });
}

const leafSize = (elements: Element[]) =>
  PAGE_HEADER_SIZE +
  elements.reduce((n, e) => n + LEAF_ELEMENT_SIZE + e.key.length + e.value.length, 0);

/** Writes a BoltDB file holding `root`'s entries as its top-level buckets (and values). */
export function writeBolt(root: WriterBucket, options: BoltWriteOptions = {}): Uint8Array {
  return new BoltWriter(options).write(root);
}

class BoltWriter {
  private readonly pageSize: number;
  private readonly pages = new Map<number, Uint8Array>();
  private nextId: number;

  constructor(private readonly options: BoltWriteOptions) {
    this.pageSize = options.pageSize ?? 4096;
    this.nextId = options.freelist === false ? 2 : 3;
  }

  write(root: WriterBucket): Uint8Array {
    const rootPage = this.writeTree(this.elementsOf(root));
    if (this.options.freelist !== false) {
      const page = this.allocate(PAGE_HEADER_SIZE, 2);
      const data = new DataView(page.buffer);
      data.setBigUint64(0, 2n, true);
      data.setUint16(8, FREELIST_PAGE, true);
    }
    const highWater = this.nextId;
    const txid = this.options.txid ?? 2;
    const newer = this.options.newerMeta ?? 1;
    for (const id of [0, 1]) {
      this.pages.set(
        id,
        this.meta(id, rootPage, highWater, BigInt(id === newer ? txid : txid - 1)),
      );
    }
    const total = highWater + (this.options.spareDataPages ?? 0);
    const file = new Uint8Array(total * this.pageSize);
    for (const [id, page] of this.pages) file.set(page, id * this.pageSize);
    return file;
  }

  private meta(id: number, rootPage: number, highWater: number, txid: bigint): Uint8Array {
    const page = new Uint8Array(this.pageSize);
    const data = new DataView(page.buffer);
    data.setBigUint64(0, BigInt(id), true);
    data.setUint16(8, META_PAGE, true);
    const m = PAGE_HEADER_SIZE;
    data.setUint32(m, BOLT_MAGIC, true);
    data.setUint32(m + 4, BOLT_VERSION, true);
    data.setUint32(m + 8, this.pageSize, true);
    data.setUint32(m + 12, 0, true);
    data.setBigUint64(m + 16, BigInt(rootPage), true);
    data.setBigUint64(m + 24, 0n, true);
    data.setBigUint64(m + 32, this.options.freelist === false ? NO_FREELIST : 2n, true);
    data.setBigUint64(m + 40, BigInt(highWater), true);
    data.setBigUint64(m + 48, txid, true);
    data.setBigUint64(m + META_CHECKSUMMED, fnv1a64(page.subarray(m, m + META_CHECKSUMMED)), true);
    return page;
  }

  /** A run of pages big enough for `size` bytes, at `id` (default: the next free id). */
  private allocate(size: number, id = this.nextId): Uint8Array {
    const count = Math.max(1, Math.ceil(size / this.pageSize));
    const page = new Uint8Array(count * this.pageSize);
    this.pages.set(id, page);
    if (id === this.nextId) this.nextId += count;
    return page;
  }

  private elementsOf(b: WriterBucket): Element[] {
    return b.entries
      .map(([key, value]): Element => {
        if (typeof value === 'object' && 'kind' in value) {
          return { flags: BUCKET_LEAF_FLAG, key: bytesOf(key), value: this.nestedValue(value) };
        }
        return { flags: 0, key: bytesOf(key), value: bytesOf(value) };
      })
      .sort((a, b) => compareBytes(a.key, b.key));
  }

  /** The leaf value of a nested bucket: its header, and its page inline when small enough. */
  private nestedValue(b: WriterBucket): Uint8Array {
    const elements = this.elementsOf(b);
    const header = new Uint8Array(BUCKET_HEADER_SIZE);
    const data = new DataView(header.buffer);
    data.setBigUint64(8, b.sequence ?? 0n, true);
    const inlineable =
      this.options.inline !== false &&
      elements.every((e) => (e.flags & BUCKET_LEAF_FLAG) === 0) &&
      leafSize(elements) <= this.pageSize / 4;
    if (inlineable) {
      const page = new Uint8Array(leafSize(elements));
      encodeLeaf(page, 0, elements, 0);
      return Buffer.concat([header, page]);
    }
    data.setBigUint64(0, BigInt(this.writeTree(elements)), true);
    return header;
  }

  /** Writes a B+tree of sorted elements; returns its root page id. */
  private writeTree(elements: Element[]): number {
    const maxLeaf = this.options.maxLeafEntries ?? Infinity;
    const leaves: Element[][] = [[]];
    for (const element of elements) {
      const current = leaves[leaves.length - 1]!;
      const full = current.length >= maxLeaf || leafSize([...current, element]) > this.pageSize;
      if (current.length > 0 && full) leaves.push([element]);
      else current.push(element);
    }
    let level = leaves.map((leaf) => {
      const size = leafSize(leaf);
      const id = this.nextId;
      const page = this.allocate(size);
      encodeLeaf(page, id, leaf, page.length / this.pageSize - 1);
      return { key: leaf[0]?.key ?? new Uint8Array(), id };
    });
    while (level.length > 1) level = this.branchLevel(level);
    return level[0]!.id;
  }

  /** One level of branch pages above `children`. */
  private branchLevel(children: { key: Uint8Array; id: number }[]) {
    const maxBranch = this.options.maxBranchEntries ?? Infinity;
    const groups: { key: Uint8Array; id: number }[][] = [[]];
    const sizeOf = (group: { key: Uint8Array }[]) =>
      PAGE_HEADER_SIZE + group.reduce((n, c) => n + BRANCH_ELEMENT_SIZE + c.key.length, 0);
    for (const child of children) {
      const current = groups[groups.length - 1]!;
      const full = current.length >= maxBranch || sizeOf([...current, child]) > this.pageSize;
      if (current.length > 0 && full) groups.push([child]);
      else current.push(child);
    }
    return groups.map((group) => {
      const id = this.nextId;
      const page = this.allocate(sizeOf(group));
      const data = new DataView(page.buffer);
      data.setBigUint64(0, BigInt(id), true);
      data.setUint16(8, BRANCH_PAGE, true);
      data.setUint16(10, group.length, true);
      data.setUint32(12, page.length / this.pageSize - 1, true);
      let cursor = PAGE_HEADER_SIZE + group.length * BRANCH_ELEMENT_SIZE;
      group.forEach((child, i) => {
        const at = PAGE_HEADER_SIZE + i * BRANCH_ELEMENT_SIZE;
        data.setUint32(at, cursor - at, true);
        data.setUint32(at + 4, child.key.length, true);
        data.setBigUint64(at + 8, BigInt(child.id), true);
        page.set(child.key, cursor);
        cursor += child.key.length;
      });
      return { key: group[0]!.key, id };
    });
  }
}
