import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { makeSampleTree } from './archive-tree.ts';

/** The files the raw-download tests read: a sample tree, odd names, rules' targets, a pipe. */
export async function seedRawFiles(root: string, random: Buffer): Promise<void> {
  await makeSampleTree(path.join(root, 'tree'), 1024 * 1024);
  await writeFile(path.join(root, 'random.bin'), random);
  await writeFile(path.join(root, 'page.html'), '<script>alert(1)</script>');
  await writeFile(
    path.join(root, 'logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  await writeFile(path.join(root, 'data.xml'), '<?xml version="1.0"?><a/>');
  await writeFile(path.join(root, 'notes.txt'), 'plain notes\n');
  await writeFile(path.join(root, 'README'), 'no extension, but text\n');
  await writeFile(path.join(root, 'photo.jpg'), randomBytes(100));
  await writeFile(path.join(root, 'naïve résumé (1).txt'), 'x');
  await mkdir(path.join(root, 'sel/a'), { recursive: true });
  await mkdir(path.join(root, 'sel/b'), { recursive: true });
  await writeFile(path.join(root, 'sel/a/one.txt'), 'one');
  await writeFile(path.join(root, 'sel/b/two.txt'), 'two');
  await writeFile(path.join(root, 'sel/c.txt'), 'three');
  await writeFile(path.join(root, 'sel/plus+name.txt'), 'plus');
  await mkdir(path.join(root, 'guarded/secret'), { recursive: true });
  await writeFile(path.join(root, 'guarded/open.txt'), 'open');
  await writeFile(path.join(root, 'guarded/secret/hidden.txt'), 'secret');
  await writeFile(path.join(root, 'guarded/.dotfile'), 'dot');
  await symlink('/etc', path.join(root, 'guarded/escape'));
  spawnSync('mkfifo', [path.join(root, 'guarded/pipe')]);
  // `\` is a separator to ScopedFs: `a\..\open.txt` must not be read as `open.txt`.
  await writeFile(path.join(root, 'guarded/a\\..\\open.txt'), 'backslashed');
  await mkdir(path.join(root, 'guarded/odd\\dir'));
  await writeFile(path.join(root, 'guarded/odd\\dir/inner.txt'), 'inner');
}

/** Downloads like a slow client: pauses after every MiB, so the server's writes queue up. */
export function slowDownload(
  server: TestServer,
  url: string,
  file: string,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(`${server.url}${url}`),
      { headers: { 'X-Auth': server.admin.token } },
      (response) => {
        const chunks: Buffer[] = [];
        let sincePause = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          sincePause += chunk.length;
          if (sincePause >= 1024 * 1024) {
            sincePause = 0;
            response.pause();
            setTimeout(() => response.resume(), 20);
          }
        });
        response.on('end', () => {
          writeFile(file, Buffer.concat(chunks)).then(() => resolve(response), reject);
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/** Downloads to a file in the scratch folder and returns the response. */
export async function download(
  server: TestServer,
  url: string,
  file: string,
  token = server.admin.token,
) {
  const response = await server.fetch(url, { token });
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return response;
}

/** What a raw-download test file shares: the server, a scratch folder for downloads, random bytes. */
export interface RawFixture {
  server: TestServer;
  scratch: string;
  random: Buffer;
}

/** Starts a server over the seeded files before the file's tests and stops it after them. */
export function rawFixture(): RawFixture {
  const fixture = { random: randomBytes(200_000) } as RawFixture;
  beforeAll(async () => {
    fixture.server = await startTestServer();
    fixture.scratch = await mkdtemp(path.join(os.tmpdir(), 'cabinet-raw-'));
    await seedRawFiles(fixture.server.root, fixture.random);
  });
  afterAll(async () => {
    await fixture.server.close();
    await rm(fixture.scratch, { recursive: true, force: true });
  });
  return fixture;
}
