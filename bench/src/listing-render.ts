/// <reference lib="dom" />
/**
 * Renders a 100,000-entry folder in Chromium and measures what a person feels: how long until the
 * first rows show, and how smooth scrolling is. The real server (server/bin/cabinet.js) serves the
 * built web app (BENCH_WEB_DIST, default web/dist) and a generated folder; Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) opens it through playwright-core, once per view.
 *
 * Figures per view: time to first rows (navigation start to the first entry in the DOM), the
 * listing request's own time, and frame intervals while the page scrolls a bounded distance at a
 * steady speed (p50 / p95 / max, plus frames slower than 50 ms). Results go to
 * bench/results/listing-render-<date>.{json,md} and listing-render-latest.*; the markdown is
 * printed. BENCH_LISTING_ENTRIES overrides the folder size (default 100,000).
 */
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { fileNames } from './dataset.ts';
import { BENCH_DIR, REPO_ROOT } from './layout.ts';
import { EXTRA_NODE_FLAGS } from './run-config.ts';
import { login, startCabinet, waitForLog } from './servers.ts';
import { percentile } from './stats.ts';

const ENTRIES = Number(process.env.BENCH_LISTING_ENTRIES ?? 100_000);
const DATA = path.resolve(process.env.BENCH_DATA ?? path.join(BENCH_DIR, '.data'));
const BASE = path.join(DATA, `listing-render-${ENTRIES}`);
const ROOT = path.join(BASE, 'root');
const FOLDER = 'entries';
const WEB_DIST = path.resolve(process.env.BENCH_WEB_DIST ?? path.join(REPO_ROOT, 'web/dist'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RESULTS = path.join(BENCH_DIR, 'results');
const PASSWORD = 'bench-listing-render-password';
/** Scroll speed and distance: 60 px a frame (3,600 px/s at 60 Hz) for 600 frames. */
const SCROLL_STEP_PX = 60;
const SCROLL_FRAMES = 600;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * Runs in the page: scrolls `step` px every animation frame for `frames` frames and records the
 * interval between frames. A string, because the TypeScript loader would wrap named functions in
 * a helper the page does not have.
 */
const SCROLL_SCRIPT = `(step, frames) => new Promise((resolve) => {
  const intervals = [];
  const startY = window.scrollY;
  let last = 0;
  let left = frames;
  function tick(now) {
    intervals.push(now - last);
    last = now;
    window.scrollBy(0, step);
    if (--left > 0) requestAnimationFrame(tick);
    else resolve({ intervals, scrolled: window.scrollY - startY });
  }
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
})`;

/**
 * Runs in every document before its own scripts: notes the time of the frame in which the first
 * row is on screen (a mutation observer sees the row enter the DOM; the next animation frame is
 * the one that paints it) as `window.__firstRowPainted`.
 */
const FIRST_ROW_SCRIPT = `(() => {
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-entry-index="0"]')) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstRowPainted = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true });
})()`;

interface ViewResult {
  view: 'list' | 'mosaic';
  /** Navigation start → the frame that paints the first entry. */
  firstRowsMs: number;
  /** The GET /api/resources/… request, start to end of its body (inside firstRowsMs). */
  listingRequestMs: number;
  /** When the page sent that request, and when its first byte came (from navigation start). */
  requestStartMs: number;
  firstByteMs: number;
  listingBytes: number;
  /** Entries rendered at first and after the scroll (the window the virtualiser keeps). */
  renderedAtStart: number;
  renderedAfterScroll: number;
  scrolledPx: number;
  frames: { count: number; p50: number; p95: number; max: number; over50ms: number };
}

/** Makes the folder once (a marker file records the size it was made for). */
async function ensureFolder(): Promise<void> {
  const marker = path.join(BASE, 'complete.json');
  const wanted = JSON.stringify({ entries: ENTRIES });
  if ((await readFile(marker, 'utf8').catch(() => '')) === wanted) return;
  const started = performance.now();
  console.log(`listing-render: writing ${ENTRIES} files under ${ROOT}`);
  await rm(BASE, { recursive: true, force: true });
  await mkdir(path.join(ROOT, FOLDER), { recursive: true });
  const names = fileNames(ENTRIES, 4242);
  const folder = path.join(ROOT, FOLDER);
  // Synchronous writes of shared buffers: a million small files in a minute or two, where a
  // promise per file spent most of its time in the thread pool's queue.
  const contents = Array.from({ length: 4096 }, (_, size) => Buffer.alloc(size, 'x'));
  for (let i = 0; i < names.length; i++) {
    writeFileSync(path.join(folder, names[i]!), contents[i % 4096]!);
    if (i % 100_000 === 99_999) console.log(`listing-render: ${i + 1} files written`);
  }
  await writeFile(marker, wanted);
  console.log(
    `listing-render: folder ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function setViewMode(url: string, token: string, viewMode: string): Promise<void> {
  const response = await fetch(`${url}/api/users/1`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'X-Auth': token },
    body: JSON.stringify({ what: 'user', which: ['viewMode'], data: { id: 1, viewMode } }),
  });
  if (!response.ok) throw new Error(`PUT /api/users/1 answered ${response.status}`);
}

async function measureView(
  browser: Browser,
  url: string,
  view: 'list' | 'mosaic',
): Promise<ViewResult> {
  // A fresh token per view: it carries the view mode the app renders with.
  const token = await login(url, 'admin', PASSWORD);
  await setViewMode(url, token, view);
  const fresh = await login(url, 'admin', PASSWORD);
  const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    await page.addInitScript(FIRST_ROW_SCRIPT);
    await page.goto(`${url}/login`);
    await page.evaluate((jwt) => localStorage.setItem('jwt', jwt), fresh);
    // BENCH_CPU_PROFILE=<file>: the page's CPU profile up to the first rows (Chrome DevTools).
    const profiler = process.env.BENCH_CPU_PROFILE ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    await page.goto(`${url}/files/${FOLDER}/`, { waitUntil: 'commit' });
    await page.waitForSelector('[data-entry-index="0"]', { timeout: 300_000 });
    // Taken in the page when the first row entered the DOM (FIRST_ROW_SCRIPT), then the frame
    // that paints it: not when this process heard of it, which waits for a busy main thread.
    const firstRowsMs = await page
      .waitForFunction(
        () => (window as unknown as { __firstRowPainted?: number }).__firstRowPainted,
        undefined,
        { timeout: 300_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<number>);
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      await writeFile(
        `${process.env.BENCH_CPU_PROFILE}-${view}.cpuprofile`,
        JSON.stringify(profile),
      );
    }
    // The compact listing is streamed: the first rows may show before its last byte arrives, and
    // the request has no timing entry until then.
    await page.waitForFunction(
      (folder) =>
        performance
          .getEntriesByType('resource')
          .some((e) => e.name.includes(`/api/resources/${folder}`)),
      FOLDER,
      { timeout: 600_000 },
    );
    const request = await page.evaluate((folder) => {
      const entry = performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes(`/api/resources/${folder}`)) as
        PerformanceResourceTiming | undefined;
      return entry
        ? {
            ms: entry.responseEnd - entry.startTime,
            bytes: entry.encodedBodySize,
            startMs: entry.startTime,
            firstByteMs: entry.responseStart,
          }
        : { ms: NaN, bytes: 0, startMs: NaN, firstByteMs: NaN };
    }, FOLDER);
    if (process.env.BENCH_TIMELINE) {
      const timeline = await page.evaluate(() =>
        performance
          .getEntries()
          .filter((e) => e.entryType !== 'resource' || e.name.includes('/api/'))
          .map((e) => {
            if (e.entryType === 'long-animation-frame') {
              const f = e as PerformanceEntry & {
                renderStart: number;
                styleAndLayoutStart: number;
                scripts: {
                  invoker: string;
                  duration: number;
                  sourceURL: string;
                  sourceFunctionName: string;
                }[];
              };
              return `${e.startTime.toFixed(0)}\tLoAF ${e.duration.toFixed(0)} ms render@${f.renderStart.toFixed(0)} layout@${f.styleAndLayoutStart.toFixed(0)} ${f.scripts.map((x) => `[${x.invoker} ${x.duration.toFixed(0)}ms ${x.sourceFunctionName} ${x.sourceURL.slice(-30)}]`).join(' ')}`;
            }
            if (e.entryType !== 'resource')
              return `${e.startTime.toFixed(0)}\t${e.entryType}\t${e.name}`;
            const r = e as PerformanceResourceTiming;
            return `${r.startTime.toFixed(0)}\t${r.responseStart.toFixed(0)}\t${r.responseEnd.toFixed(0)}\t${r.encodedBodySize}\t${r.name}`;
          })
          .join('\n'),
      );
      console.log(`listing-render: resources of the ${view} view\n${timeline}`);
    }
    const renderedAtStart = await page.locator('[data-entry-index]').count();

    const scroll = await page.evaluate<{ intervals: number[]; scrolled: number }>(
      `(${SCROLL_SCRIPT})(${SCROLL_STEP_PX}, ${SCROLL_FRAMES})`,
    );
    const renderedAfterScroll = await page.locator('[data-entry-index]').count();
    const intervals = scroll.intervals;
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      view,
      firstRowsMs: round(firstRowsMs),
      listingRequestMs: round(request.ms),
      requestStartMs: round(request.startMs),
      firstByteMs: round(request.firstByteMs),
      listingBytes: request.bytes,
      renderedAtStart,
      renderedAfterScroll,
      scrolledPx: Math.round(scroll.scrolled),
      frames: {
        count: intervals.length,
        p50: round(percentile(intervals, 50)),
        p95: round(percentile(intervals, 95)),
        max: round(Math.max(...intervals)),
        over50ms: intervals.filter((ms) => ms > 50).length,
      },
    };
  } finally {
    await context.close();
  }
}

function toMarkdown(date: string, results: ViewResult[]): string {
  const lines = [
    `# Listing render benchmark (${date})`,
    '',
    `${ENTRIES.toLocaleString('en')} entries, Chromium ${VIEWPORT.width}×${VIEWPORT.height}, ` +
      `scroll of ${SCROLL_FRAMES} frames at ${SCROLL_STEP_PX} px a frame.`,
    '',
    '| View | First rows | Request sent | First byte | Listing request | Reply size | Rows in DOM (start / after scroll) | Scrolled | Frame p50 | Frame p95 | Frame max | Frames > 50 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.view} | ${r.firstRowsMs} ms | ${r.requestStartMs} ms | ${r.firstByteMs} ms | ${r.listingRequestMs} ms | ${(r.listingBytes / 1024 / 1024).toFixed(1)} MiB | ` +
        `${r.renderedAtStart} / ${r.renderedAfterScroll} | ${r.scrolledPx} px | ${r.frames.p50} ms | ` +
        `${r.frames.p95} ms | ${r.frames.max} ms | ${r.frames.over50ms} of ${r.frames.count} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  await ensureFolder();
  process.env.CABINET_WEB_DIST = WEB_DIST;
  const server = await startCabinet({
    root: ROOT,
    password: PASSWORD,
    // BENCH_NODE_FLAGS as for `npm run bench` (e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
    nodeFlags: EXTRA_NODE_FLAGS,
    env: { CABINET_LOG_LEVEL: 'info' },
  });
  // A server that has been running: its search index built and its folders watched, as when a
  // person opens a folder (a fresh data folder makes every run build the index first).
  await waitForLog(server, 'search index ready', 600_000);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const results: ViewResult[] = [];
    for (const view of ['list', 'mosaic'] as const) {
      console.log(`listing-render: measuring the ${view} view`);
      results.push(await measureView(browser, server.url, view));
    }
    const date = new Date().toISOString();
    const markdown = toMarkdown(date, results);
    const json = JSON.stringify({ date, entries: ENTRIES, webDist: WEB_DIST, results }, null, 2);
    const stamp = date.replace(/[:.]/g, '-');
    await mkdir(RESULTS, { recursive: true });
    await writeFile(path.join(RESULTS, `listing-render-${stamp}.json`), json);
    await writeFile(path.join(RESULTS, `listing-render-${stamp}.md`), `${markdown}\n`);
    await writeFile(path.join(RESULTS, 'listing-render-latest.json'), json);
    await writeFile(path.join(RESULTS, 'listing-render-latest.md'), `${markdown}\n`);
    console.log(markdown);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
