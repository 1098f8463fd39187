import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asPrefetch, Prefetcher } from './prefetcher.ts';

/** A real HTTP server that holds each request until the test releases it. */
const held = new Map<string, ServerResponse>();
const closed: string[] = [];
const answered: string[] = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const url = request.url ?? '';
  held.set(url, response);
  request.on('close', () => {
    if (response.writableEnded) return;
    closed.push(url);
    held.delete(url);
  });
});
let base = '';

function release(url: string): void {
  held.get(url)?.end('picture');
  held.delete(url);
  answered.push(url);
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held.values()) response.end();
  await new Promise((resolve) => server.close(resolve));
});

describe('Prefetcher', () => {
  it('asks for at most two pictures at once, cancels those no longer wanted, and stops', async () => {
    const prefetcher = new Prefetcher(2);
    const urls = ['/a', '/b', '/c', '/d'].map((name) => `${base}${name}`);
    prefetcher.want(urls);
    await expect.poll(() => [...held.keys()].sort()).toEqual(['/a', '/b']);

    // The user scrolled on: /a is no longer wanted, /b and /c still are.
    prefetcher.want([urls[1]!, urls[2]!]);
    await expect.poll(() => closed).toContain('/a');
    await expect.poll(() => [...held.keys()].sort()).toEqual(['/b', '/c']);
    release('/b');
    await expect.poll(() => prefetcher.active).toBe(1);

    // What was fetched is not asked for again; leaving the screen cancels the rest.
    prefetcher.want([urls[1]!, urls[2]!]);
    expect(prefetcher.active).toBe(1);
    prefetcher.cancel();
    await expect.poll(() => closed).toContain('/c');
    expect(held.has('/d')).toBe(false);
    expect(answered).toEqual(['/b']);
  });

  it('marks a URL as a prefetch', () => {
    expect(asPrefetch('/api/preview/big/a.jpg?key=1')).toBe(
      '/api/preview/big/a.jpg?key=1&prefetch=1',
    );
    expect(asPrefetch('/api/preview/big/a.jpg')).toBe('/api/preview/big/a.jpg?prefetch=1');
  });
});
