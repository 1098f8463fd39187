/**
 * The flags the binary's `#!` line carries, and the first of SERVER_NODE_FLAGS: the semi-space
 * and heap-growing ones. Linux before 5.1 cuts a `#!` line after 127 bytes, which the transfer flag would pass, and
 * the line cannot depend on the version of Node; started through it, the server on Node 20 leaves
 * chunks to the collector.
 */
export const SHEBANG_NODE_FLAGS = [
  '--min-semi-space-size=4',
  '--max-semi-space-size=4',
  '--heap-growing-percent=20',
];

/**
 * How the server process is started: `npm start`, the benchmarks and the bundle check pass these
 * to `node`, and the `cabinet` binary's shebang line carries SHEBANG_NODE_FLAGS of them
 * (server/test/cli.test.ts keeps the two in step). Running `node server/bin/cabinet.js` by hand works without them, a
 * little slower and with more memory.
 *
 * --min-semi-space-size=4 --max-semi-space-size=4 (MiB): a young generation of 2 × 4 MiB, always.
 * Kept at 16 MiB at first, then at 8 (the history below); 4 keeps 8 MiB less resident at all
 * times, which the 200 MiB budget of issue #37 needs: over full runs of the million-file benchmark
 * the peak went from 209.4 to 197.4 and 199.1 MiB, the empty server's settled RSS from 110 to
 * 96–99. Uploads pay a little: upload-only runs gave TUS 96% and 112% of the local write against 100–101%
 * with 8 MiB, full runs 78–87% against 97% (docs/benchmarks.md, "Semi-spaces of 4 MiB").
 *
 * Why not V8's default: after an idle spell V8 shrinks the young generation to 1 MiB and
 * keeps old-generation headroom small. A resumable upload then promotes a little of every PATCH (its
 * request objects outlive a scavenge every ~40 ms) until V8 falls into a full mark-compact every
 * ~50 ms; the benchmark saw ~15 a second and TUS at half the speed of the plain upload after the
 * listing and download phases. A young generation that cannot shrink below a few MiB lets those
 * objects die young: with 16 MiB, in the same full run TUS went from 204 to 376 MB/s (3 of 3
 * rounds). V8 reads the flag only at start, so it cannot be set from inside the process.
 *
 * --heap-growing-percent=20: the old generation may grow by a fifth between full collections, not
 * by V8's own factor, which reaches 4 when collections are quick next to the program's work. On a
 * heap of ~45 MiB (a million-file index's tree and the listing cache are outside it) that let the
 * garbage of a 100,000-entry folder's first read and of its concurrent listings pile up until the
 * old generation had nearly doubled, and it stayed resident through the download and upload
 * phases after: with the flag they peaked at 197.5 and 195.1 MiB against 206.7 and 209.5, and
 * settled after the listings at 190.2 against 199.5, with listings, downloads and uploads at their
 * speeds (docs/benchmarks.md, "Big folders by find"). A full collection then comes more often;
 * V8 marks concurrently, so requests wait for it little.
 *
 * --harmony-rab-gsab-transfer, on Node 20 only: ES2024's `ArrayBuffer.prototype.transfer`, which
 * Node 20's V8 has behind this flag and Node 21 and later have without it (a later V8 may not know
 * the flag at all, so it is not passed there). Chunks of request bodies and compressors' output
 * are given back with it as soon as they are copied or written, instead of piling up (~32 MiB)
 * until V8's next collection (src/streams/chunk-release.ts). Without it they are left to the
 * collector.
 *
 * No `--expose-gc`: the server never asks V8 to collect (issue #37; Node documents changing V8's
 * flags after start as unsafe, and a forced full collection trades tail latency for an RSS
 * figure). Memory is bounded by design instead: caches sized in bytes, typed arrays, reused
 * buffers, streamed replies (docs/architecture.md, "Memory").
 */
export const SERVER_NODE_FLAGS = [...SHEBANG_NODE_FLAGS, ...transferFlag(process.versions.node)];

/** `--harmony-rab-gsab-transfer` where `ArrayBuffer.prototype.transfer` needs it (Node 20). */
export function transferFlag(nodeVersion) {
  return Number(nodeVersion.split('.')[0]) < 21 ? ['--harmony-rab-gsab-transfer'] : [];
}

/**
 * glibc's allocator settings for the server process, read by glibc when the process starts (so
 * from its environment, never from inside). A value the operator's environment already holds wins
 * (`serverEnvironment`), except under the binary's shebang, which sets them as listed.
 *
 * MALLOC_MMAP_THRESHOLD_=131072: blocks of 128 KiB and more (listing columns, read buffers,
 * libvips' images) always get a mapping of their own and go back to the system when freed. By
 * default glibc raises that threshold each time such a block is freed, up to 32 MiB, and from then
 * on serves them from its heaps, which keep the pages once the block is gone. Fixed, it holds the
 * million-file benchmark's peak 8–13 MiB lower (255.6 and 260.0 MiB against 266.7–268.6) and the
 * 10,000-photo mosaic's a few MiB lower (docs/benchmarks.md, "The allocator's settings").
 *
 * Not MALLOC_ARENA_MAX=2: fewer arenas lowered most peaks further, but thumbnailing 10,000 photos
 * then peaked at 305.5 MiB in one run of three (and 294 MiB in a run of the afternoon), the threads
 * of libvips and libuv sharing arenas that grew.
 */
export const SERVER_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The server's environment: this process's, with SERVER_MALLOC_ENV's settings where it has none. */
export function serverEnvironment() {
  return { ...SERVER_MALLOC_ENV, ...process.env };
}
