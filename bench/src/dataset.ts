/**
 * Generates the benchmark's data sets under BENCH_DATA (default bench/.data), scaled by BENCH_SCALE:
 * two listing folders of small files with realistic names, one big file of random-looking bytes,
 * and a folder of mixed text and random files for the archive measurements.
 *
 * Idempotent: each data set is built in scratch space, renamed into place, and then marked done;
 * a data set whose marker matches its size is skipped. Run directly: `npm run dataset -w bench`.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom } from '../../server/testing/seeded-random.ts';
import { MIB, datasetLayout, type DatasetLayout } from './layout.ts';

const WORDS = (
  'budget invoice report summary notes draft meeting holiday family project design contract ' +
  'receipt scan photo backup archive release minutes agenda proposal review plan roadmap ' +
  'Übersicht café résumé naïve straße 日本語 写真 données überweisung presentation ' +
  'quarterly annual weekly customer supplier payroll inventory migration schema logo banner'
).split(' ');
const EXTENSIONS = [
  '.jpg',
  '.jpeg',
  '.png',
  '.pdf',
  '.docx',
  '.xlsx',
  '.txt',
  '.md',
  '.csv',
  '.json',
  '.mp4',
  '.mp3',
  '.zip',
  '.log',
  '.html',
  '.svg',
  '.go',
  '.ts',
  '.py',
  '',
];

/** A realistic file name: camera files, dated reports, versioned drafts, spaces and Unicode. */
function fileName(rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const n = (max: number) => Math.floor(rand() * max);
  const pad = (v: number, w = 2) => String(v).padStart(w, '0');
  const year = 2015 + n(11);
  switch (n(6)) {
    case 0:
      return `IMG_${year}${pad(1 + n(12))}${pad(1 + n(28))}_${pad(n(24))}${pad(n(60))}${pad(n(60))}.jpg`;
    case 1:
      return `${pick(WORDS)} ${pick(WORDS)} ${year}${pick(EXTENSIONS)}`;
    case 2:
      return `Report Q${1 + n(4)} ${year} (final)${pick(['.pdf', '.docx', '.xlsx'])}`;
    case 3:
      return `${pick(WORDS)}_${pick(WORDS)}_v${1 + n(20)}${pick(EXTENSIONS)}`;
    case 4:
      return `${pick(WORDS)}-${pad(n(10000), 4)}${pick(EXTENSIONS)}`;
    default:
      return `Scan ${year}-${pad(1 + n(12))}-${pad(1 + n(28))} ${pad(n(24))}.${pad(n(60))}.pdf`;
  }
}

/** `count` distinct realistic names (a clash gets " (n)" before its extension). */
export function fileNames(count: number, seed: number): string[] {
  const rand = seededRandom(seed);
  const seen = new Set<string>();
  const names: string[] = [];
  while (names.length < count) {
    let name = fileName(rand);
    if (seen.has(name.toLowerCase())) {
      const ext = path.extname(name);
      name = `${name.slice(0, name.length - ext.length)} (${names.length})${ext}`;
    }
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/** Runs `task` over `items` with at most `limit` in flight (keeps libuv's pool busy, not flooded). */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A text block of random words: compresses about 3:1 like ordinary prose or logs. */
function textBlock(bytes: number, seed: number): Buffer {
  const rand = seededRandom(seed);
  const parts: string[] = [];
  let length = 0;
  let line = 0;
  while (length < bytes) {
    const words = Array.from(
      { length: 6 + Math.floor(rand() * 10) },
      () => WORDS[Math.floor(rand() * WORDS.length)],
    );
    const text = `${String(++line).padStart(6, ' ')}  ${words.join(' ')}\n`;
    parts.push(text);
    length += Buffer.byteLength(text);
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

/** Folder of `count` small files (0–4 KiB) with realistic names. */
async function makeListing(dir: string, count: number, seed: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const pool = Buffer.concat([textBlock(64 * 1024, seed), randomBytes(64 * 1024)]);
  const rand = seededRandom(seed + 1);
  const sizes = Array.from({ length: count }, () => Math.floor(rand() * 4096));
  await eachLimited(fileNames(count, seed), 32, async (name, i) => {
    const size = sizes[i] ?? 0;
    const start = (i * 977) % (pool.length - 4096);
    await writeFile(path.join(dir, name), pool.subarray(start, start + size));
  });
}

/** One file of random-looking bytes: a few random 1 MiB blocks repeated in a shuffled order. */
function makeBigFile(file: string, bytes: number): void {
  const blocks = Array.from({ length: 16 }, () => randomBytes(MIB));
  const rand = seededRandom(7);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < bytes;) {
      const block = blocks[Math.floor(rand() * blocks.length)] as Buffer;
      const part = block.subarray(0, Math.min(MIB, bytes - written));
      writeSync(fd, part);
      written += part.length;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Folder of `count` files totalling exactly `totalBytes` in ten sub-folders: half the files are
 * text (compressible), half random; sizes spread log-uniformly from 1 KiB to a few MiB.
 */
async function makeMixed(dir: string, count: number, totalBytes: number): Promise<void> {
  const rand = seededRandom(11);
  const weights = Array.from({ length: count }, () => Math.exp(rand() * Math.log(4096)));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((w / sum) * totalBytes));
  sizes[0] = (sizes[0] ?? 0) + totalBytes - sizes.reduce((a, b) => a + b, 0);
  const maxSize = Math.max(...sizes);
  const text = textBlock(Math.min(maxSize, 4 * MIB) + MIB, 13);
  const random = randomBytes(Math.min(maxSize, 4 * MIB) + MIB);
  const folders = Math.min(10, count);
  for (let f = 0; f < folders; f++)
    await mkdir(path.join(dir, `part-${String(f + 1).padStart(2, '0')}`), { recursive: true });

  /** `size` bytes from `pool`, starting at a per-file offset and wrapping around. */
  const slice = (pool: Buffer, size: number, offset: number): Buffer => {
    const parts: Buffer[] = [];
    let start = offset % pool.length;
    for (let left = size; left > 0;) {
      const part = pool.subarray(start, Math.min(pool.length, start + left));
      parts.push(part);
      left -= part.length;
      start = 0;
    }
    return Buffer.concat(parts, size);
  };
  await eachLimited(sizes, 8, async (size, i) => {
    const isText = i % 2 === 0;
    const folder = `part-${String((i % folders) + 1).padStart(2, '0')}`;
    const name = isText
      ? `chapter-${String(i).padStart(4, '0')}.txt`
      : `blob-${String(i).padStart(4, '0')}.bin`;
    const data = slice(isText ? text : random, size, i * 65_537);
    await writeFile(path.join(dir, folder, name), data);
  });
}

interface Part {
  key: string;
  target: string;
  /** What makes the data set; the marker stores it so a size change rebuilds. */
  marker: Record<string, unknown>;
  build(tmp: string): Promise<void>;
}

function parts(layout: DatasetLayout): Part[] {
  const { spec, root, names } = layout;
  return [
    {
      key: 'listing-small',
      target: path.join(root, names.smallListing),
      marker: { files: spec.smallListing, seed: 1 },
      build: (tmp) => makeListing(tmp, spec.smallListing, 1),
    },
    {
      key: 'listing-large',
      target: path.join(root, names.largeListing),
      marker: { files: spec.largeListing, seed: 2 },
      build: (tmp) => makeListing(tmp, spec.largeListing, 2),
    },
    {
      key: 'big-file',
      target: path.join(root, names.bigFile),
      marker: { bytes: spec.bigFileBytes },
      build: async (tmp) => makeBigFile(tmp, spec.bigFileBytes),
    },
    {
      key: 'mixed',
      target: path.join(root, names.mixed),
      marker: { files: spec.mixedFiles, bytes: spec.mixedBytes },
      build: (tmp) => makeMixed(tmp, spec.mixedFiles, spec.mixedBytes),
    },
  ];
}

/**
 * Makes every missing data set of the layout; returns the keys it built. Safe to interrupt: an
 * unfinished data set stays in scratch space and is rebuilt next time.
 */
export async function ensureDataset(
  layout: DatasetLayout,
  log: (line: string) => void = console.log,
): Promise<string[]> {
  await mkdir(layout.root, { recursive: true });
  await mkdir(layout.scratch, { recursive: true });
  await mkdir(layout.state, { recursive: true });
  const built: string[] = [];
  for (const part of parts(layout)) {
    const markerFile = path.join(layout.state, `${part.key}.json`);
    const wanted = JSON.stringify(part.marker);
    const existing = await readFile(markerFile, 'utf8').catch(() => '');
    if (existing === wanted) continue;
    const started = performance.now();
    log(`dataset: building ${part.key} ${wanted}`);
    const tmp = path.join(layout.scratch, `building-${part.key}`);
    await rm(tmp, { recursive: true, force: true });
    await rm(markerFile, { force: true });
    await part.build(tmp);
    await rm(part.target, { recursive: true, force: true });
    await rename(tmp, part.target);
    await writeFile(markerFile, wanted);
    log(`dataset: ${part.key} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    built.push(part.key);
  }
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const layout = datasetLayout();
  const built = await ensureDataset(layout);
  console.log(
    `dataset: ${built.length ? `built ${built.join(', ')}` : 'everything already present'} in ${layout.root}`,
  );
}
