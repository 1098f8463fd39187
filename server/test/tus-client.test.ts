import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Upload, type DetailedError, type UploadOptions } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import {
  eventually,
  headUpload,
  patchThenDrop,
  randomContent,
  realOf,
  sha256,
  sha256File,
  stagingFiles,
} from './helpers/tus.ts';

const CHUNK = 256 * 1024;

/** Runs a tus-js-client upload to completion, or rejects with its error. */
function runUpload(content: Buffer, options: UploadOptions): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(content, {
      chunkSize: CHUNK,
      retryDelays: null,
      parallelUploads: 1,
      storeFingerprintForResuming: false,
      ...options,
      onSuccess: () => resolve(upload),
      onError: (error) => reject(error),
    });
    upload.start();
  });
}

describe('tus resumable uploads with tus-js-client 4.3.1', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    user = await server.createUser({ perm: { create: true, modify: true, delete: true } });
  });
  afterAll(() => server.close());

  it('uploads a multi-chunk file end to end with identical bytes', async () => {
    const content = randomContent(5 * CHUNK + 12_345);
    const chunks: number[] = [];
    const upload = await runUpload(content, {
      endpoint: `${server.url}/api/tus/client/photos/big file.bin?override=false`,
      headers: { 'X-Auth': user.token },
      metadata: { filename: 'big file.bin', filetype: 'application/octet-stream' },
      onChunkComplete: (_size, accepted) => chunks.push(accepted),
    });
    expect(upload.url).toBe(`${server.url}/api/tus/client/photos/big%20file.bin`);
    expect(chunks).toEqual([1, 2, 3, 4, 5].map((n) => n * CHUNK).concat(content.length));
    const real = realOf(server.root, '/client/photos/big file.bin');
    expect(await sha256File(real)).toBe(sha256(content));
    expect(await stagingFiles(path.dirname(real))).toEqual([]);
  });

  it('works with data in the creation request and with the PATCH method override', async () => {
    const content = randomContent(3 * CHUNK);
    await runUpload(content, {
      endpoint: `${server.url}/api/tus/client/with-creation.bin`,
      headers: { 'X-Auth': user.token },
      uploadDataDuringCreation: true,
      overridePatchMethod: true,
    });
    expect(await sha256File(realOf(server.root, '/client/with-creation.bin'))).toBe(
      sha256(content),
    );
  });

  it('creates an empty file from a zero-byte upload', async () => {
    await runUpload(Buffer.alloc(0), {
      endpoint: `${server.url}/api/tus/client/empty.txt`,
      headers: { 'X-Auth': user.token },
    });
    expect(await readFile(realOf(server.root, '/client/empty.txt'))).toEqual(Buffer.alloc(0));
  });

  it('reports 409 for an existing file and replaces it with override=true', async () => {
    const real = realOf(server.root, '/client/exists.txt');
    await writeFile(real, 'previous');
    const error = (await runUpload(Buffer.from('next'), {
      endpoint: `${server.url}/api/tus/client/exists.txt?override=false`,
      headers: { 'X-Auth': user.token },
    }).catch((e: unknown) => e)) as DetailedError;
    expect(error.originalResponse?.getStatus()).toBe(409);
    expect(await readFile(real, 'utf8')).toBe('previous');

    await runUpload(Buffer.from('next'), {
      endpoint: `${server.url}/api/tus/client/exists.txt?override=true`,
      headers: { 'X-Auth': user.token },
    });
    expect(await readFile(real, 'utf8')).toBe('next');
  });

  it('terminates an upload it started', async () => {
    const content = randomContent(4 * CHUNK);
    const upload = await new Promise<Upload>((resolve, reject) => {
      const started: Upload = new Upload(content, {
        endpoint: `${server.url}/api/tus/client/terminated.bin`,
        headers: { 'X-Auth': user.token },
        chunkSize: CHUNK,
        retryDelays: null,
        onChunkComplete: () => {
          void started.abort().then(() => resolve(started));
        },
        onError: reject,
      });
      started.start();
    });
    await Upload.terminate(upload.url!, { headers: { 'X-Auth': user.token }, retryDelays: null });
    expect((await headUpload(server, user.token, '/client/terminated.bin')).status).toBe(404);
    expect(await stagingFiles(realOf(server.root, '/client'))).toEqual([]);
  });

  it('works under a base URL', async () => {
    const prefixed = await startTestServer({ config: { baseURL: '/fb' } });
    try {
      const { token } = await prefixed.createUser({ perm: { create: true } });
      const content = randomContent(CHUNK + 1);
      const upload = await runUpload(content, {
        endpoint: `${prefixed.url}/api/tus/under/base.bin`,
        headers: { 'X-Auth': token },
      });
      expect(new URL(upload.url!).pathname).toBe('/fb/api/tus/under/base.bin');
      expect(await sha256File(realOf(prefixed.root, '/under/base.bin'))).toBe(sha256(content));
    } finally {
      await prefixed.close();
    }
  });
});

describe('an upload interrupted, the server restarted, then resumed', () => {
  it('resumes from the offset on disk and completes with identical bytes', async () => {
    const first = await startTestServer();
    const { root, dataDir } = first;
    const user = await first.createUser({ perm: { create: true } });
    const virtual = '/restart/archive.bin';
    const content = randomContent(6 * CHUNK + 777);

    // Two chunks go through, then the client stops (as a closed laptop would).
    const upload = await new Promise<Upload>((resolve, reject) => {
      const started: Upload = new Upload(content, {
        endpoint: `${first.url}/api/tus${virtual}`,
        headers: { 'X-Auth': user.token },
        chunkSize: CHUNK,
        retryDelays: null,
        onChunkComplete: (_size, accepted) => {
          if (accepted >= 2 * CHUNK) void started.abort().then(() => resolve(started));
        },
        onError: reject,
      });
      started.start();
    });
    const location = new URL(upload.url!).pathname;
    expect(location).toBe('/api/tus/restart/archive.bin');

    // Then part of a third chunk arrives before the connection drops mid-body.
    await patchThenDrop(
      first,
      user.token,
      virtual,
      2 * CHUNK,
      CHUNK,
      content.subarray(2 * CHUNK, 2 * CHUNK + 50_000),
    );
    const folder = realOf(root, '/restart');
    const [staging] = await stagingFiles(folder);
    await eventually(
      async () => (await readFile(path.join(folder, staging!))).length === 2 * CHUNK + 50_000,
      10_000,
      'the partial chunk to be kept',
    );
    await first.close({ removeFiles: false });

    const second = await startTestServer({ root, dataDir });
    try {
      const token = await second.tokenFor(user.user);
      const head = await headUpload(second, token, virtual);
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe(String(2 * CHUNK + 50_000));
      expect(head.headers.get('upload-length')).toBe(String(content.length));

      const offsets: number[] = [];
      await runUpload(content, {
        uploadUrl: `${second.url}${location}`,
        headers: { 'X-Auth': token },
        onChunkComplete: (_size, accepted) => offsets.push(accepted),
      });
      // The client resumed where the disk said, not from zero.
      expect(offsets[0]).toBe(3 * CHUNK + 50_000);
      expect(await sha256File(realOf(root, virtual))).toBe(sha256(content));
      expect(await stagingFiles(folder)).toEqual([]);
    } finally {
      await second.close();
      await rm(path.dirname(root), { recursive: true, force: true });
    }
  });
});

describe('two instances sharing the database and the file tree', () => {
  it('continues on one instance an upload started on the other', async () => {
    const a = await startTestServer();
    const b = await startTestServer({ root: a.root, dataDir: a.dataDir });
    try {
      const user = await a.createUser({ perm: { create: true } });
      const content = randomContent(4 * CHUNK + 3);
      const started = await new Promise<Upload>((resolve, reject) => {
        const upload: Upload = new Upload(content, {
          endpoint: `${a.url}/api/tus/instances/shared.bin`,
          headers: { 'X-Auth': user.token },
          chunkSize: CHUNK,
          retryDelays: null,
          onChunkComplete: () => void upload.abort().then(() => resolve(upload)),
          onError: reject,
        });
        upload.start();
      });
      // The same token works on the other instance (shared key and sessions).
      await runUpload(content, {
        uploadUrl: `${b.url}${new URL(started.url!).pathname}`,
        headers: { 'X-Auth': user.token },
      });
      expect(await sha256File(realOf(a.root, '/instances/shared.bin'))).toBe(sha256(content));
    } finally {
      await b.close();
      await a.close();
    }
  });
});
