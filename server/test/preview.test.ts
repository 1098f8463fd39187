import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../src/preview/limiter.ts';
import { converterSlots } from '../src/services/preview.service.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

let server: TestServer;

/** Left half red, right half blue: shows which way an image was turned. */
async function halves(width: number, height: number): Promise<Sharp> {
  const half = Math.floor(width / 2);
  const blue = await sharp({
    create: { width: width - half, height, channels: 3, background: { r: 0, g: 0, b: 255 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } },
  }).composite([{ input: blue, left: half, top: 0 }]);
}

/** A PNG whose header claims `width`×`height` (with a valid CRC) but holds one pixel. */
async function claimingPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC follows 13 bytes later.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

/** The previews stored in a cache mirror folder (not a write still in its temp file). */
async function cachedIn(mirror: string): Promise<string[]> {
  const names = await readdir(mirror).catch(() => []);
  return names.filter((name) => name.startsWith('@'));
}

async function fetchImage(url: string, token = server.admin.token) {
  const response = await server.fetch(url, { token });
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body };
}

beforeAll(async () => {
  server = await startTestServer();
  const root = server.root;
  await mkdir(path.join(root, 'pics'), { recursive: true });
  await (await halves(2000, 1500)).jpeg().toFile(path.join(root, 'pics/large.jpg'));
  await (await halves(640, 480)).jpeg().toFile(path.join(root, 'pics/small.jpg'));
  await sharp({
    create: {
      width: 300,
      height: 200,
      channels: 4,
      background: { r: 0, g: 128, b: 0, alpha: 0.5 },
    },
  })
    .png()
    .toFile(path.join(root, 'pics/alpha.png'));
  await (await halves(1200, 400)).webp().toFile(path.join(root, 'pics/wide.webp'));
  // Stored 400×200 with EXIF orientation 6: shown turned a quarter clockwise, 200×400.
  await (
    await halves(400, 200)
  )
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toFile(path.join(root, 'pics/rotated.jpg'));
  await writeFile(path.join(root, 'pics/bomb.png'), await claimingPng(20000, 20000));
  await writeFile(path.join(root, 'pics/broken.jpg'), 'this is not a JPEG');
  await sharp({ create: { width: 20, height: 20, channels: 3, background: '#00f' } })
    .gif()
    .toFile(path.join(root, 'pics/anim.gif'));
  await writeFile(
    path.join(root, 'pics/vector.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
  );
  await writeFile(path.join(root, 'pics/notes.txt'), 'not an image');
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/preview', () => {
  it('makes a 256×256 JPEG thumbnail of a JPEG', async () => {
    const { response, body } = await fetchImage('/api/preview/thumb/pics/large.jpg?inline=true');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('content-disposition')).toBe("inline; filename*=utf-8''large.jpg");
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 256]);
  });

  it('makes WebP thumbnails of PNG and WebP images, keeping transparency', async () => {
    const png = await fetchImage('/api/preview/thumb/pics/alpha.png');
    expect(png.response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(png.body).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['webp', 256, 256, true]);
    const webp = await fetchImage('/api/preview/thumb/pics/wide.webp');
    const wide = await sharp(webp.body).metadata();
    expect([wide.format, wide.width, wide.height]).toEqual(['webp', 256, 256]);
  });

  it('fits big previews inside 1080×1080 in the source format, never enlarging', async () => {
    const cases: [string, string, number, number][] = [
      ['pics/large.jpg', 'jpeg', 1080, 810],
      ['pics/wide.webp', 'webp', 1080, 360],
      ['pics/small.jpg', 'jpeg', 640, 480],
      ['pics/alpha.png', 'png', 300, 200],
    ];
    for (const [file, format, width, height] of cases) {
      const { response, body } = await fetchImage(`/api/preview/big/${file}`);
      expect(response.status).toBe(200);
      const meta = await sharp(body).metadata();
      expect([file, meta.format, meta.width, meta.height]).toEqual([file, format, width, height]);
    }
  });

  it('applies the EXIF orientation', async () => {
    const big = await fetchImage('/api/preview/big/pics/rotated.jpg');
    const meta = await sharp(big.body).metadata();
    expect([meta.width, meta.height]).toEqual([200, 400]);
    const thumb = await fetchImage('/api/preview/thumb/pics/rotated.jpg');
    const { data, info } = await sharp(thumb.body).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels;
      return data[at]! > 128 ? 'red' : data[at + 2]! > 128 ? 'blue' : 'other';
    };
    // Turned a quarter clockwise, the left (red) half is on top.
    expect(pixel(240, 10)).toBe('red');
    expect(pixel(10, 245)).toBe('blue');
  });

  it('refuses a decompression bomb with 413', async () => {
    const response = await server.fetch('/api/preview/thumb/pics/bomb.png', {
      token: server.admin.token,
    });
    expect(response.status).toBe(413);
    const big = await server.fetch('/api/preview/big/pics/bomb.png', { token: server.admin.token });
    expect(big.status).toBe(413);
  });

  it('refuses source files over 64 MiB with 413 without reading them', async () => {
    // A sparse file: its size is what counts, no disk space is used.
    await writeFile(path.join(server.root, 'pics/huge.jpg'), '');
    await truncate(path.join(server.root, 'pics/huge.jpg'), 65 * 1024 * 1024);
    const response = await server.fetch('/api/preview/thumb/pics/huge.jpg', {
      token: server.admin.token,
    });
    expect(response.status).toBe(413);
  });

  it('answers 415 for bytes that do not decode', async () => {
    const response = await server.fetch('/api/preview/thumb/pics/broken.jpg', {
      token: server.admin.token,
    });
    expect(response.status).toBe(415);
  });

  it('sends GIF and SVG originals, SVG sandboxed', async () => {
    const gif = await fetchImage('/api/preview/thumb/pics/anim.gif?inline=true');
    expect(gif.body.equals(await readFile(path.join(server.root, 'pics/anim.gif')))).toBe(true);
    expect(gif.response.headers.get('content-type')).toBe('image/gif');
    const svg = await fetchImage('/api/preview/big/pics/vector.svg?inline=true');
    expect(svg.response.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.response.headers.get('content-security-policy')).toContain('sandbox');
    expect(svg.response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 501 for a non-image, 400 for a folder and an unknown size, 404 when missing', async () => {
    const status = async (url: string) =>
      (await server.fetch(url, { token: server.admin.token })).status;
    expect(await status('/api/preview/thumb/pics/notes.txt')).toBe(501);
    expect(await status('/api/preview/thumb/pics')).toBe(400);
    expect(await status('/api/preview/huge/pics/small.jpg')).toBe(400);
    expect(await status('/api/preview/thumb/pics/nope.jpg')).toBe(404);
  });

  it('answers 202 without download permission and 403 for blocked images', async () => {
    const noDownload = await server.createUser({ perm: { download: false } });
    const response = await server.fetch('/api/preview/thumb/pics/small.jpg', {
      token: noDownload.token,
    });
    expect(response.status).toBe(202);
    const blocked = await server.createUser({
      rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.jpg$' } }],
    });
    const denied = await server.fetch('/api/preview/thumb/pics/small.jpg', {
      token: blocked.token,
    });
    expect(denied.status).toBe(403);
  });

  it('supports conditional requests and ranges on previews', async () => {
    const first = await fetchImage('/api/preview/big/pics/small.jpg');
    const etag = first.response.headers.get('etag')!;
    const again = await server.fetch('/api/preview/big/pics/small.jpg', {
      token: server.admin.token,
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    const part = await server.fetch('/api/preview/big/pics/small.jpg', {
      token: server.admin.token,
      headers: { Range: 'bytes=0-9' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(first.body.subarray(0, 10))).toBe(true);
  });

  it('serves from the cache and drops the cache when the image is overwritten or deleted', async () => {
    await (await halves(800, 800)).jpeg().toFile(path.join(server.root, 'pics/cached.jpg'));
    const first = await fetchImage('/api/preview/thumb/pics/cached.jpg');
    expect(first.response.status).toBe(200);

    const mirror = path.join(
      server.dataDir,
      'cache/previews',
      await realpath(path.join(server.root, 'pics/cached.jpg')),
    );
    // Written after the reply: the cached copy appears shortly.
    await expect.poll(() => cachedIn(mirror)).toHaveLength(1);
    const [cachedName] = await cachedIn(mirror);
    expect(cachedName).toMatch(/^@thumb-\d+-\d+\.jpg$/);
    // Mark the cached file: a hit sends the marked bytes back.
    const marked = await (await halves(256, 256)).flop().jpeg().toBuffer();
    await writeFile(path.join(mirror, cachedName!), marked);
    const hit = await fetchImage('/api/preview/thumb/pics/cached.jpg');
    expect(hit.body.equals(marked)).toBe(true);

    // Overwrite through the API: the change feed drops the cached preview.
    const replacement = await (await halves(300, 600)).jpeg().toBuffer();
    const put = await server.fetch('/api/resources/pics/cached.jpg', {
      token: server.admin.token,
      method: 'PUT',
      body: replacement,
    });
    expect(put.status).toBe(200);
    await expect.poll(() => existsSync(mirror)).toBe(false);
    const big = await fetchImage('/api/preview/big/pics/cached.jpg');
    expect(big.body.equals(marked)).toBe(false);
    const meta = await sharp(big.body).metadata();
    expect([meta.width, meta.height]).toEqual([300, 600]);

    const removed = await server.fetch('/api/resources/pics/cached.jpg', {
      token: server.admin.token,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    await expect.poll(() => existsSync(mirror)).toBe(false);
  });

  it('answers a folder of thumbnails asked at once, each then cached for the next view', async () => {
    await mkdir(path.join(server.root, 'burst'), { recursive: true });
    const names = Array.from({ length: 12 }, (_, i) => `photo-${i}.jpg`);
    const image = await (await halves(640, 480)).jpeg().toBuffer();
    for (const name of names) await writeFile(path.join(server.root, 'burst', name), image);
    // The listing the web app reads first (it also loads the converter ahead of the thumbnails).
    const listing = await server.fetch('/api/resources/burst/', { token: server.admin.token });
    expect(listing.status).toBe(200);

    const first = await Promise.all(
      names.map((name) => fetchImage(`/api/preview/thumb/burst/${name}`)),
    );
    for (const { response, body } of first) {
      expect(response.status).toBe(200);
      expect((await sharp(body).metadata()).width).toBe(256);
    }
    // Written behind the replies: every one lands in the cache.
    const mirrorOf = async (name: string) =>
      path.join(
        server.dataDir,
        'cache/previews',
        await realpath(path.join(server.root, 'burst', name)),
      );
    for (const name of names) {
      const mirror = await mirrorOf(name);
      await expect.poll(() => cachedIn(mirror)).toHaveLength(1);
    }
    // A second view is answered from the cache: a marked cached file comes back as it is.
    const mirror = await mirrorOf(names[5]!);
    const [cachedName] = await cachedIn(mirror);
    const marked = await (await halves(256, 256)).flop().jpeg().toBuffer();
    await writeFile(path.join(mirror, cachedName!), marked);
    const again = await fetchImage(`/api/preview/thumb/burst/${names[5]}`);
    expect(again.body.equals(marked)).toBe(true);
  });

  it('never serves a stale preview of a file changed behind its back', async () => {
    const file = path.join(server.root, 'pics/outside.jpg');
    await (await halves(500, 500)).jpeg().toFile(file);
    const before = await fetchImage('/api/preview/big/pics/outside.jpg');
    expect((await sharp(before.body).metadata()).width).toBe(500);
    await (await halves(700, 350)).jpeg().toFile(file);
    const after = await fetchImage('/api/preview/big/pics/outside.jpg');
    expect((await sharp(after.body).metadata()).width).toBe(700);
  });
});

describe('preview settings', () => {
  it('sends originals when thumbnails and resizing are off', async () => {
    const plain = await startTestServer({ config: { enableThumbs: false, resizePreview: false } });
    try {
      const original = await (await halves(1600, 1200)).jpeg().toBuffer();
      await writeFile(path.join(plain.root, 'photo.jpg'), original);
      for (const size of ['thumb', 'big']) {
        const response = await plain.fetch(`/api/preview/${size}/photo.jpg`, {
          token: plain.admin.token,
        });
        expect(Buffer.from(await response.arrayBuffer()).equals(original)).toBe(true);
      }
    } finally {
      await plain.close();
    }
  });
});

describe('converterSlots', () => {
  it('runs sharp on no more pipelines than cores, leaving two libuv threads to file access', () => {
    expect(converterSlots(4, 2, 4)).toBe(2);
    expect(converterSlots(4, 8, 4)).toBe(2);
    expect(converterSlots(4, 8, 16)).toBe(4);
    expect(converterSlots(1, 8, 16)).toBe(1);
    expect(converterSlots(4, 1, 2)).toBe(1);
  });
});

describe('Limiter', () => {
  it('never runs more tasks at once than its limit, and runs them all', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limiter
          .run(async () => {
            running++;
            peak = Math.max(peak, running);
            await new Promise((resolve) => setTimeout(resolve, 5));
            running--;
            if (i === 3) throw new Error('task failed');
            return i;
          })
          .catch(() => -1),
      ),
    );
    expect(peak).toBe(2);
    expect(results).toEqual([0, 1, 2, -1, 4, 5, 6, 7, 8, 9]);
    expect(limiter.active).toBe(0);
  });

  it('runs what is on screen before prefetches, and a promoted prefetch with them', async () => {
    const limiter = new Limiter(1);
    const order: string[] = [];
    let release!: () => void;
    const blocker = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const task = (name: string) => async () => {
      order.push(name);
    };
    const ticket: { promote?: () => void } = {};
    const done = Promise.all([
      limiter.run(task('prefetch a'), 'low'),
      limiter.run(task('prefetch b'), 'low', ticket),
      limiter.run(task('on screen'), 'high'),
    ]);
    ticket.promote?.();
    release();
    await blocker;
    await done;
    expect(order).toEqual(['on screen', 'prefetch b', 'prefetch a']);
  });
});
