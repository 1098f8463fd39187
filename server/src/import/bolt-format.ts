/**
 * The on-disk layout of a BoltDB file (bbolt), as far as a reader of filebrowser databases needs
 * it. Shared by the read-only reader and the test-only writer so that both speak one layout. The
 * file is a run of fixed-size pages; every integer is little-endian (bbolt writes its in-memory
 * structs as they are, and filebrowser's builds run on little-endian machines).
 *
 * - Page header (16 bytes): id u64, flags u16, count u16, overflow u32. A page with `overflow` N
 *   spans N+1 pages.
 * - Pages 0 and 1 are meta pages; the meta struct follows the header: magic u32, version u32,
 *   page size u32, flags u32, root bucket (root page u64, sequence u64), freelist page u64, high
 *   water mark u64 (the first page id never allocated), txid u64, and an FNV-1a 64 checksum of the
 *   56 bytes before it. A reader takes the valid meta with the higher txid.
 * - Branch page element (16 bytes): pos u32, key size u32, child page id u64.
 * - Leaf page element (16 bytes): flags u32, pos u32, key size u32, value size u32. `pos` counts
 *   from the element itself to its key; the value follows the key.
 * - A leaf element with the bucket flag holds a nested bucket: its root page id u64 and sequence
 *   u64, and when the root is 0 an inline leaf page right after them.
 */

export const PAGE_HEADER_SIZE = 16;
export const BRANCH_ELEMENT_SIZE = 16;
export const LEAF_ELEMENT_SIZE = 16;
export const BUCKET_HEADER_SIZE = 16;
export const META_SIZE = 64;
/** Bytes of the meta struct covered by its checksum (everything before the checksum). */
export const META_CHECKSUMMED = 56;

export const BRANCH_PAGE = 0x01;
export const LEAF_PAGE = 0x02;
export const META_PAGE = 0x04;
export const FREELIST_PAGE = 0x10;
/** Leaf element flag: the value is a nested bucket. */
export const BUCKET_LEAF_FLAG = 0x01;

export const BOLT_MAGIC = 0xed0cdaed;
export const BOLT_VERSION = 2;
/** The freelist page id bbolt writes when it does not persist the freelist. */
export const NO_FREELIST = 0xffffffffffffffffn;

/** Page sizes a reader accepts: the operating systems' page sizes bbolt takes by default. */
export const MIN_PAGE_SIZE = 512;
export const MAX_PAGE_SIZE = 1 << 20;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = (1n << 64n) - 1n;

/** FNV-1a, 64 bits: the checksum bbolt keeps of each meta page. */
export function fnv1a64(bytes: Uint8Array): bigint {
  let hash = FNV_OFFSET;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & U64;
  return hash;
}
