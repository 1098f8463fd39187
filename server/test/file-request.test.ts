import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;
let alice: TestUser;
const inbox = () => path.join(server.root, 'users/alice/inbox');

async function request(user: TestUser, body: Record<string, unknown> = {}) {
  return server.fetch('/api/share/inbox', {
    method: 'POST',
    token: user.token,
    body: JSON.stringify({ request: true, ...body }),
  });
}

async function requestHash(body: Record<string, unknown> = {}): Promise<string> {
  const response = await request(alice, body);
  expect(response.status).toBe(200);
  const link = (await response.json()) as { hash: string; isRequest: boolean };
  expect(link.isRequest).toBe(true);
  return link.hash;
}

const upload = (
  hash: string,
  name: string,
  content: string,
  headers: Record<string, string> = {},
) =>
  rawRequest(server.url, 'POST', `/api/public/upload/${hash}/${name}`, { body: content, headers });

beforeAll(async () => {
  server = await startTestServer();
  await mkdir(inbox(), { recursive: true });
  await writeFile(path.join(inbox(), 'earlier.txt'), 'someone else sent this');
  await writeFile(path.join(server.root, 'users/alice/file.txt'), 'x');
  alice = await server.createUser({ scope: '/users/alice' });
});
afterAll(() => server.close());

describe('file requests', () => {
  it('are made for folders only, by users who may create', async () => {
    const onFile = await server.fetch('/api/share/file.txt', {
      method: 'POST',
      token: alice.token,
      body: JSON.stringify({ request: true }),
    });
    expect(onFile.status).toBe(400);
    const noCreate = await server.createUser({ scope: '/users/alice', perm: { create: false } });
    expect((await request(noCreate)).status).toBe(403);
  });

  it('show the folder name and nothing of its contents, and never download', async () => {
    const hash = await requestHash();
    const info = await rawRequest(server.url, 'GET', `/api/public/share/${hash}`);
    expect(info.status).toBe(200);
    const body = JSON.parse(info.body) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'inbox', isDir: true, request: true });
    expect(body.items).toBeUndefined();
    expect(info.body).not.toContain('earlier');
    expect((await rawRequest(server.url, 'GET', `/api/public/share/${hash}/sub`)).status).toBe(403);
    for (const dl of [
      `/api/public/dl/${hash}`,
      `/api/public/dl/${hash}/earlier.txt`,
      `/api/public/dl/${hash}/?algo=zip`,
    ]) {
      const response = await rawRequest(server.url, 'GET', dl);
      expect(response.status).toBe(403);
      expect(response.body).not.toContain('someone else');
    }
  });

  it('take uploads and never overwrite what is there', async () => {
    const hash = await requestHash();
    const first = await upload(hash, 'earlier.txt', 'mine');
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ name: 'earlier(1).txt' });
    expect(await readFile(path.join(inbox(), 'earlier.txt'), 'utf8')).toBe(
      'someone else sent this',
    );
    expect(await readFile(path.join(inbox(), 'earlier(1).txt'), 'utf8')).toBe('mine');
    const fresh = await upload(hash, 'photo%20one.jpg', 'jpeg');
    expect(JSON.parse(fresh.body)).toEqual({ name: 'photo one.jpg' });
  });

  it.each([['../escape.txt'], ['..%2Fescape.txt'], ['sub/inner.txt'], ['sub%2Finner.txt'], ['']])(
    'refuse the name %s without writing outside the folder',
    async (name) => {
      const hash = await requestHash();
      const response = await upload(hash, name, 'bad');
      expect([301, 400, 404]).toContain(response.status);
      const names = await readdir(path.join(server.root, 'users/alice'));
      expect(names).not.toContain('escape.txt');
      expect(await readdir(inbox())).not.toContain('sub');
    },
  );

  it('stop after their limit and keep their password', async () => {
    const limited = await requestHash({ downloadLimit: 1 });
    expect((await upload(limited, 'one.txt', '1')).status).toBe(200);
    expect((await upload(limited, 'two.txt', '2')).status).toBe(410);
    const guarded = await requestHash({ password: 'drop here' });
    expect((await upload(guarded, 'p.txt', 'p')).status).toBe(401);
    const ok = await upload(guarded, 'p.txt', 'p', {
      'X-SHARE-PASSWORD': encodeURIComponent('drop here'),
    });
    expect(ok.status).toBe(200);
  });

  it('are no upload route for download links', async () => {
    const response = await server.fetch('/api/share/inbox', {
      method: 'POST',
      token: alice.token,
      body: '{}',
    });
    const { hash } = (await response.json()) as { hash: string };
    expect((await upload(hash, 'x.txt', 'x')).status).toBe(403);
  });

  it("count against the owner's quota: an upload that does not fit is refused whole", async () => {
    const MIB = 1024 * 1024;
    const carolInbox = path.join(server.root, 'users/carol/inbox');
    await mkdir(carolInbox, { recursive: true });
    const carol = await server.createUser({ scope: '/users/carol', quota: MIB });
    const made = await server.fetch('/api/share/inbox', {
      method: 'POST',
      token: carol.token,
      body: JSON.stringify({ request: true, downloadLimit: 2 }),
    });
    const { hash } = (await made.json()) as { hash: string };
    const words = '507 Insufficient Storage (This would exceed your quota: 0 B of 1 MiB used)\n';
    // Declared too big: refused before a byte is read, and the link's count is not spent.
    const big = await rawRequest(server.url, 'POST', `/api/public/upload/${hash}/big.bin`, {
      body: Buffer.alloc(3 * MIB, 1),
    });
    expect(big.status).toBe(507);
    expect(big.body).toBe(words);
    // Streamed without a length: refused once it passes the room left, no partial file kept.
    const chunks = [0, 1, 2].map((n) => Buffer.alloc(MIB, n));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/api/public/upload/${hash}/streamed.bin`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(507);
    expect(await streamed.text()).toBe(words);
    expect(await readdir(carolInbox)).toEqual([]);
    expect(await readdir(path.join(server.root, 'users/carol'))).toEqual(['inbox']);
    // What fits lands and counts toward the owner's usage.
    const fits = await upload(hash, 'fits.txt', 'x'.repeat(1000));
    expect(fits.status).toBe(200);
    const usage = await server.fetch('/api/quota', { token: carol.token });
    expect(await usage.json()).toEqual({ used: 1000, quota: MIB });
    // Bad input is still a 400 before any quota is judged.
    expect((await upload(hash, 'sub%2Fx.txt', 'x')).status).toBe(400);
  });
});
