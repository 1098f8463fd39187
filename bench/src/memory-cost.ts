/**
 * What Cabinet's memory goes to (issue #30): RSS per indexed entry and per cached listing byte,
 * from GET /api/memory (administrators only: the search index's entries, the listing cache's
 * bytes) and the process's settled RSS (rss.ts) at three points of a run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settledRss } from './rss.ts';
import { login, startCabinet } from './servers.ts';

/** GET /api/memory's answer (server/src/routes/memory.routes.ts). */
export interface ServerMemory {
  process: Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>;
  searchIndex: { ready: boolean; entries: number; bytes: number };
  listingCache: { capacity: number; bytes: number; folders: number };
}

export async function serverMemory(url: string, token: string): Promise<ServerMemory> {
  const response = await fetch(`${url}/api/memory`, {
    headers: { 'x-auth': token },
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`GET /api/memory answered ${response.status}`);
  return (await response.json()) as ServerMemory;
}

/** Polls until the search index answers from a table (built or loaded). */
export async function indexReady(
  url: string,
  token: string,
  timeoutMs = 300_000,
): Promise<ServerMemory> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const memory = await serverMemory(url, token);
    if (memory.searchIndex.ready) return memory;
    if (Date.now() > deadline) throw new Error(`search index not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Settled RSS of the same server on an empty root (its index holds the root alone): the base the
 * index's cost is measured from.
 */
export async function emptyRootRss(
  password: string,
  nodeFlags: string[],
  bin: string | undefined,
): Promise<number> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-empty-'));
  const server = await startCabinet({ root, password, nodeFlags, ...(bin && { bin }) });
  try {
    await indexReady(server.url, await login(server.url, 'admin', password));
    return await settledRss(server.pid);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/** A point of the run: settled RSS and what the server says it holds then. */
export interface MemoryPoint {
  settledRss: number;
  server: ServerMemory;
}

export async function memoryPoint(pid: number, url: string, token: string): Promise<MemoryPoint> {
  const rss = await settledRss(pid);
  return { settledRss: rss, server: await serverMemory(url, token) };
}

export interface MemoryCost {
  /** Settled RSS on an empty root. */
  emptyRootRss?: number;
  /** The bench tree's index ready, nothing listed yet. */
  indexed?: MemoryPoint;
  /** After the listing phases: the cache holds what they filled. */
  listed?: MemoryPoint;
  error?: string;
}

/** (indexed − empty root) / entries: what one indexed entry costs, everything included. */
export function rssPerEntry(cost: MemoryCost): number | undefined {
  const { emptyRootRss: base, indexed } = cost;
  if (base === undefined || !indexed || indexed.server.searchIndex.entries === 0) return undefined;
  return (indexed.settledRss - base) / indexed.server.searchIndex.entries;
}

/**
 * (listed − indexed) / the cache's bytes: RSS growth over the listing phases per byte the cache
 * counts. An upper bound: the growth includes whatever else the listings left resident (compiled
 * code, allocator pages not returned).
 */
export function rssPerCachedByte(cost: MemoryCost): number | undefined {
  const { indexed, listed } = cost;
  if (!indexed || !listed || listed.server.listingCache.bytes === 0) return undefined;
  return (listed.settledRss - indexed.settledRss) / listed.server.listingCache.bytes;
}
