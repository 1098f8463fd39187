// One visit of a share page counts one download, whatever the page fetches to show and save the
// file; requests without a visit ticket count each full GET (docs/sharing.md).
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { issueVisitTicket } from '../src/services/share/visit-ticket.ts';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  await mkdir(path.join(server.root, 'users/alice/folder'), { recursive: true });
  await writeFile(path.join(server.root, 'users/alice/doc.txt'), 'the whole document');
  await writeFile(path.join(server.root, 'users/alice/folder/a.txt'), 'alpha');
  await writeFile(path.join(server.root, 'users/alice/folder/b.txt'), 'beta');
  alice = await server.createUser({ scope: '/users/alice' });
});
afterAll(() => server.close());

async function share(sharePath: string, body: unknown): Promise<string> {
  const response = await server.fetch(`/api/share${sharePath}`, {
    method: 'POST',
    token: alice.token,
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { hash: string }).hash;
}

const get = (rawPath: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(server.url, method, rawPath, { headers });

async function visit(hash: string, sub = '', ticket?: string): Promise<string> {
  const query = ticket ? `?visit=${encodeURIComponent(ticket)}` : '';
  const response = await get(`/api/public/share/${hash}${sub}${query}`);
  expect(response.status).toBe(200);
  return (JSON.parse(response.body) as { visit: string }).visit;
}

const downloads = async (hash: string) => (await server.ctx.store.shares.get(hash))?.downloads;

describe('a share page visit', () => {
  it('counts one download for its preview, range requests and Download, and a fresh visit another', async () => {
    const hash = await share('/doc.txt', { downloadLimit: 2 });
    const ticket = await visit(hash);
    expect(ticket).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);
    expect(await downloads(hash)).toBe(0); // The info alone is no copy.
    const dl = `/api/public/dl/${hash}?visit=${encodeURIComponent(ticket)}`;
    expect((await get(`${dl}&inline=true`)).body).toBe('the whole document');
    expect((await get(`${dl}&inline=true`, { range: 'bytes=0-3' })).status).toBe(206);
    expect((await get(`${dl}&inline=true`, { range: 'bytes=4-' })).body).toBe('whole document');
    expect((await get(dl)).body).toBe('the whole document');
    expect(await downloads(hash)).toBe(1);

    const second = await visit(hash);
    expect(second).not.toBe(ticket);
    expect((await get(`/api/public/dl/${hash}?visit=${encodeURIComponent(second)}`)).status).toBe(
      200,
    );
    expect(await downloads(hash)).toBe(2);
    // Used up: a new visit is told so (410, not 404) …
    expect((await get(`/api/public/share/${hash}`)).status).toBe(410);
    expect((await get(`/api/public/dl/${hash}`)).status).toBe(410);
    // … while a visit that had its copy may still fetch what it shows.
    expect((await get(`${dl}&inline=true`, { range: 'bytes=4-' })).status).toBe(206);
    expect(await downloads(hash)).toBe(2);
  });

  it('counts once when its requests arrive together', async () => {
    const hash = await share('/doc.txt', { downloadLimit: 1 });
    const ticket = await visit(hash);
    const dl = `/api/public/dl/${hash}?visit=${encodeURIComponent(ticket)}`;
    const replies = await Promise.all([get(dl), get(dl), get(dl), get(dl), get(dl)]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await downloads(hash)).toBe(1);
    const late = await visit(hash).catch(() => 'refused');
    expect(late).toBe('refused');
  });

  it('keeps its ticket while it walks a folder link', async () => {
    const hash = await share('/folder/', { downloadLimit: 1 });
    const ticket = await visit(hash);
    expect(await visit(hash, '/a.txt', ticket)).toBe(ticket);
    const dl = (file: string) =>
      get(`/api/public/dl/${hash}${file}?visit=${encodeURIComponent(ticket)}`);
    expect((await dl('/a.txt')).body).toBe('alpha');
    expect((await dl('/b.txt')).body).toBe('beta');
    expect(await downloads(hash)).toBe(1);
  });

  it('counts nothing for a download refused for the path', async () => {
    const hash = await share('/folder/', { downloadLimit: 1 });
    const ticket = await visit(hash);
    const missing = await get(
      `/api/public/dl/${hash}/nope.txt?visit=${encodeURIComponent(ticket)}`,
    );
    expect(missing.status).toBe(404);
    expect(await downloads(hash)).toBe(0);
  });
});

describe('requests without a visit ticket', () => {
  it('count each full GET, not HEAD and not a range that continues', async () => {
    const hash = await share('/doc.txt', { downloadLimit: 3 });
    expect((await get(`/api/public/dl/${hash}`, {}, 'HEAD')).status).not.toBe(200);
    expect(await downloads(hash)).toBe(0);
    expect((await get(`/api/public/dl/${hash}`)).status).toBe(200);
    expect((await get(`/api/public/dl/${hash}`, { range: 'bytes=4-' })).status).toBe(206);
    expect((await get(`/api/public/dl/${hash}`)).status).toBe(200);
    expect(await downloads(hash)).toBe(2);
  });

  it('count a forged, foreign or expired ticket as none', async () => {
    const hash = await share('/doc.txt', { downloadLimit: 0 });
    const other = await share('/doc.txt', { downloadLimit: 0 });
    const foreign = await visit(other);
    const expired = issueVisitTicket(server.ctx.signingKey, hash, Date.now() - 7 * 3600 * 1000);
    const genuine = await visit(hash);
    const forged = genuine.replace(/\.[\w-]+$/, '.AAAA');
    for (const ticket of [foreign, expired, forged, 'garbage']) {
      const reply = await get(`/api/public/dl/${hash}?visit=${encodeURIComponent(ticket)}`);
      expect(reply.status).toBe(200);
    }
    expect(await downloads(hash)).toBe(4);
    // A forged ticket also earns no free pass on a used-up link.
    const limited = await share('/doc.txt', { downloadLimit: 1 });
    expect((await get(`/api/public/dl/${limited}`)).status).toBe(200);
    const bogus = `/api/public/dl/${limited}?visit=${encodeURIComponent(forged)}`;
    expect((await get(bogus)).status).toBe(410);
  });
});
