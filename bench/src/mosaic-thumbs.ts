/// <reference lib="dom" />
/**
 * The 10,000-photo mosaic (issue 41, docs/previews.md "Figures"): the real server
 * (server/bin/cabinet.js, its own process, serving web/dist) and Debian's Chromium through
 * playwright-core open a folder of photos in the mosaic view and measure what a person sees:
 *
 * - first thumbnail: navigation start → the first thumbnail on screen decoded;
 * - first screen: navigation start → every thumbnail on screen decoded;
 * - end: the End key pressed on the first tile (focus and scroll jump to the last photo) → every
 *   thumbnail on screen there decoded;
 *
 * with a cold preview cache (a new data folder) and then warm (the same server, a new browser
 * context, so nothing comes from the browser's cache). Then every photo's thumbnail is asked for
 * over HTTP, 8 at a time, and the server process's peak RSS (VmHWM in /proc/<pid>/status) is read:
 * the server alone, not this process. JPEGs are decoded by sharp inside the server, so no
 * decoder process runs.
 *
 *   npm run mosaic-thumbs -w bench [-- --photos 10000]
 */
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { BENCH_DIR, REPO_ROOT } from './layout.ts';
import { login, startCabinet, type RunningServer } from './servers.ts';

const argValue = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const PHOTOS = argValue('photos', 10_000);
const DATA = path.resolve(process.env.BENCH_DATA ?? path.join(BENCH_DIR, '.data'));
const BASE = path.join(DATA, `mosaic-thumbs-${PHOTOS}`);
const ROOT = path.join(BASE, 'root');
const FOLDER = 'photos';
const WEB_DIST = path.resolve(process.env.BENCH_WEB_DIST ?? path.join(REPO_ROOT, 'web/dist'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'bench-mosaic-thumbs-password';
const VIEWPORT = { width: 1280, height: 800 };
/** Distinct pictures the folder's photos cycle through (decoding work is the same per file). */
const DISTINCT = 64;

/**
 * Installed in the page before it loads: every animation frame from navigation start, records
 * (performance.now()) the first frame with a tile, the first with a thumbnail on screen decoded
 * and the first with every thumbnail on screen decoded, in `window.__mosaic`. Measured in the
 * page, so no DevTools round trip is counted (polling from this process added up to ~0.3 s on the
 * loaded machine to the first tiles and the first thumbnail: runs before 2026-11-29 13:00).
 */
const FIRST_SCREEN = `(() => {
  const marks = (window.__mosaic = {});
  function tick() {
    const now = performance.now();
    if (marks.rows === undefined && document.querySelector('[data-entry-index="0"]')) marks.rows = now;
    const shown = [...document.querySelectorAll('img.thumbnail')].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.width > 0;
    });
    const done = shown.filter((img) => img.complete && img.naturalWidth > 0);
    if (marks.first === undefined && done.length > 0) marks.first = now;
    if (shown.length > 0 && done.length === shown.length) {
      marks.screen = now;
      marks.onScreen = shown.length;
    } else requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})()`;

/**
 * Runs in the page: resolves with performance.now() at the first animation frame where `count`
 * thumbnails on screen (`all`: every one, at least one) are decoded. A string, so the TypeScript
 * loader leaves it alone.
 */
const THUMBS_SHOWN = `(all) => new Promise((resolve) => {
  function onScreen() {
    return [...document.querySelectorAll('img.thumbnail')].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.width > 0;
    });
  }
  function tick() {
    const shown = onScreen();
    const done = shown.filter((img) => img.complete && img.naturalWidth > 0);
    if (shown.length > 0 && (all ? done.length === shown.length : done.length > 0)) {
      resolve({ at: performance.now(), onScreen: shown.length });
    } else requestAnimationFrame(tick);
  }
  tick();
})`;

interface Run {
  cache: 'cold' | 'warm';
  /** Navigation start → the first frame with a tile (the app and the listing, no thumbnail yet). */
  firstRowsMs: number;
  firstThumbMs: number;
  firstScreenMs: number;
  firstScreenThumbs: number;
  endMs: number;
  endThumbs: number;
}

/** Writes the folder once (a marker records the size it was made for): 640×480 JPEGs. */
async function ensureFolder(): Promise<void> {
  const marker = path.join(BASE, 'complete.json');
  const wanted = JSON.stringify({ photos: PHOTOS });
  if ((await readFile(marker, 'utf8').catch(() => '')) === wanted) return;
  console.log(`mosaic-thumbs: writing ${PHOTOS} photos under ${ROOT}`);
  await rm(BASE, { recursive: true, force: true });
  await mkdir(path.join(ROOT, FOLDER), { recursive: true });
  const pictures: Buffer[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const hue = Math.round((360 * i) / DISTINCT);
    pictures.push(
      await sharp({
        create: {
          width: 640,
          height: 480,
          channels: 3,
          background: `hsl(${hue}, 60%, 50%)`,
          noise: { type: 'gaussian', mean: 128, sigma: 20 },
        },
      })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  for (let i = 0; i < PHOTOS; i++) {
    const name = `IMG_${String(i).padStart(5, '0')}.jpg`;
    writeFileSync(path.join(ROOT, FOLDER, name), pictures[i % DISTINCT]!);
  }
  await writeFile(marker, wanted);
}

async function setMosaic(url: string, token: string): Promise<void> {
  const response = await fetch(`${url}/api/users/1`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'X-Auth': token },
    body: JSON.stringify({
      what: 'user',
      which: ['viewMode'],
      data: { id: 1, viewMode: 'mosaic' },
    }),
  });
  if (!response.ok) throw new Error(`PUT /api/users/1 answered ${response.status}`);
}

async function measure(
  browser: Browser,
  url: string,
  token: string,
  cache: Run['cache'],
): Promise<Run> {
  const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/login`);
    await page.evaluate((jwt) => localStorage.setItem('jwt', jwt), token);
    await page.addInitScript(FIRST_SCREEN);
    await page.goto(`${url}/files/${FOLDER}/`, { waitUntil: 'commit' });
    type Shown = { at: number; onScreen: number };
    type Marks = { rows: number; first: number; screen: number; onScreen: number };
    await page.waitForFunction(
      () => (window as unknown as { __mosaic: { screen?: number } }).__mosaic.screen !== undefined,
      null,
      { timeout: 120_000, polling: 100 },
    );
    const marks = await page.evaluate<Marks>('window.__mosaic');
    await page.locator('[data-entry-index="0"]').focus();
    const pressed = await page.evaluate(() => performance.now());
    await page.keyboard.press('End');
    await page.waitForSelector(`[data-entry-index="${PHOTOS - 1}"]`, { timeout: 120_000 });
    const end = await page.evaluate<Shown>(`(${THUMBS_SHOWN})(true)`);
    const round = (n: number) => Math.round(n);
    return {
      cache,
      firstRowsMs: round(marks.rows),
      firstThumbMs: round(marks.first),
      firstScreenMs: round(marks.screen),
      firstScreenThumbs: marks.onScreen,
      endMs: round(end.at - pressed),
      endThumbs: end.onScreen,
    };
  } finally {
    await context.close();
  }
}

/** A process's resident memory now (VmRSS) or its peak since the last reset (VmHWM), in MiB. */
async function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return Math.round((kb / 1024) * 10) / 10;
}

/**
 * Starts a new peak (VmHWM) from the resident memory now (`5` to /proc/<pid>/clear_refs, Linux
 * 4.0+): the login's argon2 hashing (19 MiB for a moment) is not a thumbnail's.
 */
async function resetPeak(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}

/** Every photo's thumbnail over HTTP, `width` at a time; returns the seconds it took. */
async function thumbnailAll(server: RunningServer, token: string, width: number): Promise<number> {
  const names = Array.from({ length: PHOTOS }, (_, i) => `IMG_${String(i).padStart(5, '0')}.jpg`);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const response = await fetch(`${server.url}/api/preview/thumb/${FOLDER}/${name}`, {
          headers: { 'X-Auth': token },
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${name}: ${response.status}`);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  await ensureFolder();
  process.env.CABINET_WEB_DIST = WEB_DIST;
  const server = await startCabinet({ root: ROOT, password: PASSWORD });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    await setMosaic(server.url, await login(server.url, 'admin', PASSWORD));
    // One login (argon2) before measuring: its token carries the mosaic view mode.
    const token = await login(server.url, 'admin', PASSWORD);
    const loadBefore = loadavg()[0]!;
    const atStart = await rssMiB(server.pid, 'VmRSS');
    await resetPeak(server.pid);
    const runs = [await measure(browser, server.url, token, 'cold')];
    runs.push(await measure(browser, server.url, token, 'warm'));
    const afterMosaic = await rssMiB(server.pid, 'VmHWM');
    await resetPeak(server.pid);
    const allSeconds = await thumbnailAll(server, token, 8);
    const afterAll = await rssMiB(server.pid, 'VmHWM');
    const atEnd = await rssMiB(server.pid, 'VmRSS');
    const load = [loadBefore, loadavg()[0]!].map((n) => n.toFixed(2));
    const arenas = process.env.MALLOC_ARENA_MAX;
    const lines = [
      `# Mosaic of ${PHOTOS.toLocaleString('en')} photos (${new Date().toISOString()})`,
      '',
      `Chromium ${VIEWPORT.width}×${VIEWPORT.height}, 640×480 JPEGs, the server in its own process` +
        `${arenas ? ` (MALLOC_ARENA_MAX=${arenas})` : ''}; load average ${load.join(' → ')}.`,
      '',
      '| Preview cache | First tiles | First thumbnail | First screen (thumbnails) | End key → last screen (thumbnails) |',
      '| --- | --- | --- | --- | --- |',
      ...runs.map(
        (r) =>
          `| ${r.cache} | ${r.firstRowsMs} ms | ${r.firstThumbMs} ms | ${r.firstScreenMs} ms (${r.firstScreenThumbs}) | ${r.endMs} ms (${r.endThumbs}) |`,
      ),
      '',
      `Every thumbnail over HTTP, 8 at a time (the rest of the folder cold): ${allSeconds.toFixed(1)} s.`,
      `Server RSS: ${atStart} MiB started and logged in; peak (VmHWM) ${afterMosaic} MiB during the ` +
        `two mosaic runs, ${afterAll} MiB while every thumbnail was made; ${atEnd} MiB after.`,
    ];
    const markdown = lines.join('\n');
    const results = path.join(BENCH_DIR, 'results');
    await mkdir(results, { recursive: true });
    await writeFile(path.join(results, 'mosaic-thumbs-latest.md'), `${markdown}\n`);
    await writeFile(
      path.join(results, 'mosaic-thumbs-latest.json'),
      JSON.stringify(
        { photos: PHOTOS, load, arenas, runs, allSeconds, atStart, afterMosaic, afterAll, atEnd },
        null,
        2,
      ),
    );
    console.log(markdown);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
