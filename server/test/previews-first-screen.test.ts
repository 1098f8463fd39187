import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARMED_THUMBNAILS } from '../src/services/preview.service.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

let server: TestServer;

/** What a browser sends with every request (and curl or a sync tool does not). */
const BROWSER = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };

/** The thumbnails stored for one source file (not a write still in its temp file). */
async function thumbnailsOf(folder: string, name: string): Promise<string[]> {
  const mirror = path.join(
    server.dataDir,
    'cache/previews',
    await realpath(path.join(server.root, folder, name)),
  );
  const names = await readdir(mirror).catch(() => []);
  return names.filter((entry) => entry.startsWith('@thumb-'));
}

/**
 * `count` small JPEGs named photo-00.jpg…, a folder, a text file, a GIF and a broken JPEG (listed
 * before the others) in `folder`.
 */
async function album(folder: string, count: number): Promise<string[]> {
  await mkdir(path.join(server.root, folder, 'a-subfolder'), { recursive: true });
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
    .jpeg()
    .toBuffer();
  const names = Array.from({ length: count }, (_, i) => `photo-${String(i).padStart(2, '0')}.jpg`);
  for (const name of names) await writeFile(path.join(server.root, folder, name), jpeg);
  await writeFile(path.join(server.root, folder, 'notes.txt'), 'not a picture');
  // Named like a photo, but no image: its failure is the preview's (415), never the server's.
  await writeFile(path.join(server.root, folder, 'photo-0-broken.jpg'), 'not a JPEG');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
    .gif()
    .toFile(path.join(server.root, folder, 'a-sent-as-it-is.gif'));
  return names;
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("a listing's first screen of thumbnails", () => {
  it('is made while the listing is sent, in its order, and answered from the cache', async () => {
    const names = await album('album', WARMED_THUMBNAILS + 6);
    const listing = await server.fetch('/api/resources/album/', {
      token: server.admin.token,
      headers: BROWSER,
    });
    expect(listing.status).toBe(200);

    // Nobody asked for a picture: the first screen's thumbnails appear in the cache anyway (the
    // broken JPEG listed first takes one of the places).
    const first = names.slice(0, WARMED_THUMBNAILS - 1);
    for (const name of first) {
      await expect.poll(() => thumbnailsOf('album', name)).toHaveLength(1);
    }
    // Past the first screen nothing is made ahead (those are made once the mosaic scrolls there).
    for (const name of names.slice(WARMED_THUMBNAILS - 1)) {
      expect(await thumbnailsOf('album', name)).toEqual([]);
    }

    // The web app's request is then answered from the cache: a marked cached file comes back.
    const mirror = path.join(
      server.dataDir,
      'cache/previews',
      await realpath(path.join(server.root, 'album', first[0]!)),
    );
    const [cached] = await thumbnailsOf('album', first[0]!);
    const marked = await sharp({
      create: { width: 256, height: 256, channels: 3, background: '#f0f' },
    })
      .jpeg()
      .toBuffer();
    await writeFile(path.join(mirror, cached!), marked);
    const response = await server.fetch(`/api/preview/thumb/album/${first[0]}`, {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(marked)).toBe(true);
    const broken = await server.fetch('/api/preview/thumb/album/photo-0-broken.jpg', {
      token: server.admin.token,
    });
    expect(broken.status).toBe(415);
  });

  it('is not made for a script, which shows no pictures', async () => {
    const names = await album('scripted', 2);
    const scripted = await server.fetch('/api/resources/scripted/', { token: server.admin.token });
    expect(scripted.status).toBe(200);
    // A browser's listing of another folder, begun after the script's, is made ahead…
    const other = await album('browsed', 1);
    await server.fetch('/api/resources/browsed/', { token: server.admin.token, headers: BROWSER });
    await expect.poll(() => thumbnailsOf('browsed', other[0]!)).toHaveLength(1);
    // …while the script's folder still has none.
    for (const name of names) expect(await thumbnailsOf('scripted', name)).toEqual([]);
  });

  it('remembers a file that is no image, so later listings do not read it again', async () => {
    await album('broken', 1);
    const preview = server.runtime.services.preview;
    const pictures = { images: ['photo-0-broken.jpg'], pictured: true };
    await preview.warm(server.admin.user, '/broken', pictures);
    const mirror = path.join(
      server.dataDir,
      'cache/previews',
      await realpath(path.join(server.root, 'broken/photo-0-broken.jpg')),
    );
    await expect
      .poll(async () => (await readdir(mirror).catch(() => [])).join())
      .toMatch(/^@failed-/);
    // Made a JPEG in place (same name): a changed file is tried again.
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#a00' } })
      .jpeg()
      .toBuffer();
    await writeFile(path.join(server.root, 'broken/photo-0-broken.jpg'), jpeg);
    const fixed = await server.fetch('/api/preview/thumb/broken/photo-0-broken.jpg', {
      token: server.admin.token,
    });
    expect(fixed.status).toBe(200);
  });

  it('is made for nobody who may not download, nor of a file a rule hides', async () => {
    const names = await album('private', 3);
    const preview = server.runtime.services.preview;
    const noDownload = await server.createUser({ perm: { download: false } });
    await preview.warm(noDownload.user, '/private', { images: names, pictured: true });
    for (const name of names) expect(await thumbnailsOf('private', name)).toEqual([]);

    // A listing made before a rule hid a file still names it: the rule holds.
    const hidden = await server.createUser({
      rules: [{ regex: false, allow: false, path: '/private/photo-01.jpg', regexp: null }],
    });
    await preview.warm(hidden.user, '/private', { images: names, pictured: true });
    // Made (written behind the conversion) for the others.
    await expect.poll(() => thumbnailsOf('private', 'photo-00.jpg')).toHaveLength(1);
    await expect.poll(() => thumbnailsOf('private', 'photo-02.jpg')).toHaveLength(1);
    expect(await thumbnailsOf('private', 'photo-01.jpg')).toEqual([]);
  });

  it('is not made when thumbnails are off', async () => {
    const plain = await startTestServer({ config: { enableThumbs: false } });
    try {
      await mkdir(path.join(plain.root, 'off'));
      const jpeg = await sharp({
        create: { width: 32, height: 32, channels: 3, background: '#000' },
      })
        .jpeg()
        .toBuffer();
      await writeFile(path.join(plain.root, 'off/one.jpg'), jpeg);
      await plain.runtime.services.preview.warm(plain.admin.user, '/off', {
        images: ['one.jpg'],
        pictured: true,
      });
      const cache = path.join(plain.dataDir, 'cache/previews');
      expect(await readdir(cache).catch(() => [])).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
