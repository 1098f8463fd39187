import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
  chmod,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { expectSameBytes } from './helpers/bytes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import { FileRoot } from '../src/fs/file-root.ts';
import { UploadStaging } from '../src/fs/upload-staging.ts';

const ID = 'a'.repeat(32);

/** Resolves once a stream's queued bytes have been read by its consumer. */
async function drained(stream: PassThrough): Promise<void> {
  while (stream.readableLength > 0 || stream.writableLength > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
let counter = 0;
const nextId = () => (++counter).toString(16).padStart(32, '0');

describe('upload staging files', () => {
  let base: string;
  let root: FileRoot;
  let staging: UploadStaging;

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-staging-'));
    root = await FileRoot.open({
      root: path.join(base, 'files'),
      dataDir: path.join(base, 'data'),
    });
    staging = new UploadStaging(root);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const fresh = async (name: string) => {
    const target = path.join(root.realRoot, name);
    const file = staging.stagingPathFor(target, nextId());
    await staging.create(file);
    return { target, file };
  };

  it('names staging files as hidden temp files beside the target', () => {
    const file = staging.stagingPathFor(path.join(root.realRoot, 'a', 'b.bin'), ID);
    expect(file).toBe(path.join(root.realRoot, 'a', `.cabinet-tmp-tus-${ID}`));
    expect(() => staging.stagingPathFor(path.join(root.realRoot, 'x'), '../../etc')).toThrow(
      AppError,
    );
  });

  it('refuses paths that are not staging files inside the root', async () => {
    await expect(staging.size('/etc/passwd')).rejects.toThrow(AppError);
    await expect(staging.discard(path.join(root.realRoot, 'user-file.txt'))).rejects.toThrow(
      AppError,
    );
    await expect(staging.discard(path.join(base, `.cabinet-tmp-tus-${ID}`))).rejects.toThrow(
      AppError,
    );
  });

  it('creates an empty file exclusively and reports its size', async () => {
    const { file } = await fresh('create.bin');
    expect(await staging.size(file)).toBe(0);
    await expect(staging.create(file)).rejects.toThrow(AppError);
  });

  it('appends at the offset, in order, across many small chunks', async () => {
    const { file } = await fresh('append.bin');
    const parts = Array.from({ length: 200 }, (_, i) => Buffer.alloc(10_000, i));
    const outcome = await staging.append(file, {
      offset: 0,
      limit: 5_000_000,
      source: Readable.from(parts),
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'written', offset: 2_000_000 });
    expectSameBytes(await readFile(file), Buffer.concat(parts));
    // 2 MB through the flush-behind's fsyncs: on a disk busy with other jobs that can take minutes.
  }, 180_000);

  it('writes nothing when the offset is not the size on disk', async () => {
    const { file } = await fresh('conflict.bin');
    await writeFile(file, 'abc');
    const outcome = await staging.append(file, {
      offset: 1,
      limit: 10,
      source: Readable.from([Buffer.from('zz')]),
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'conflict', offset: 3 });
    expect(await readFile(file, 'utf8')).toBe('abc');
  });

  it('rolls a body that passes the limit back to the offset, after large batches too', async () => {
    const { file } = await fresh('overflow.bin');
    await writeFile(file, 'head');
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const outcome = await staging.append(file, {
      offset: 4,
      limit: big.length - 1,
      source: Readable.from([big.subarray(0, 2 * 1024 * 1024), big.subarray(2 * 1024 * 1024)]),
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'tooLarge', offset: 4 });
    expect(await readFile(file, 'utf8')).toBe('head');
  });

  it('keeps what arrived when the body breaks off', async () => {
    const { file } = await fresh('broken.bin');
    const source = new PassThrough();
    const result = staging.append(file, {
      offset: 0,
      limit: 100,
      source,
      signal: new AbortController().signal,
    });
    source.on('error', () => undefined);
    source.write(Buffer.from('first '));
    source.write(Buffer.from('second'));
    // Bytes still queued in the stream at hang-up time were never received; wait until read.
    await drained(source);
    source.destroy(new Error('socket hang up'));
    expect(await result).toEqual({ status: 'interrupted', offset: 12 });
    expect(await readFile(file, 'utf8')).toBe('first second');
  });

  it('stops and keeps the data when a newer request takes over', async () => {
    const { file } = await fresh('taken-over.bin');
    const source = new PassThrough();
    const controller = new AbortController();
    const result = staging.append(file, {
      offset: 0,
      limit: 100,
      source,
      signal: controller.signal,
    });
    source.write(Buffer.from('partial'));
    await drained(source);
    controller.abort();
    expect(await result).toEqual({ status: 'interrupted', offset: 7 });
    expect(source.destroyed).toBe(true);
  });

  it('never writes through a symlink planted as the staging file', async () => {
    const victim = path.join(base, 'victim.txt');
    await writeFile(victim, 'safe');
    const file = staging.stagingPathFor(path.join(root.realRoot, 'planted.bin'), nextId());
    await symlink(victim, file);
    await expect(
      staging.append(file, {
        offset: 4,
        limit: 10,
        source: Readable.from([Buffer.from('x')]),
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(AppError);
    expect(await readFile(victim, 'utf8')).toBe('safe');
    expect(await staging.size(file)).toBeUndefined();
    // Discarding removes the link itself, never its target.
    expect(await staging.discard(file)).toBe(true);
    expect(await readFile(victim, 'utf8')).toBe('safe');
  });

  it('commits by rename, refusing to clobber without override and keeping the mode with it', async () => {
    const { file, target } = await fresh('commit.txt');
    await writeFile(file, 'new');
    await writeFile(target, 'old');
    await chmod(target, 0o604);
    await expect(staging.commit(file, target, false)).rejects.toMatchObject({ status: 409 });
    expect(await readFile(target, 'utf8')).toBe('old');
    await staging.commit(file, target, true);
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mode & 0o777).toBe(0o604);
    expect(await staging.size(file)).toBeUndefined();

    const second = await fresh('commit-new.txt');
    await writeFile(second.file, 'brand new');
    await staging.commit(second.file, second.target, false);
    expect(await readFile(second.target, 'utf8')).toBe('brand new');
  });

  it('refuses to commit over a folder', async () => {
    const { file, target } = await fresh('a-dir');
    await mkdir(target);
    await expect(staging.commit(file, target, true)).rejects.toMatchObject({ status: 409 });
  });

  it('refuses to discard through a symlinked folder', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    const name = `.cabinet-tmp-tus-${ID}`;
    await writeFile(path.join(outside, name), 'keep me');
    await symlink(outside, path.join(root.realRoot, 'linked'));
    expect(await staging.discard(path.join(root.realRoot, 'linked', name))).toBe(false);
    expect(await readFile(path.join(outside, name), 'utf8')).toBe('keep me');
    expect((await lstat(path.join(root.realRoot, 'linked'))).isSymbolicLink()).toBe(true);
  });

  it('measures free space from the nearest existing folder', async () => {
    const bytes = await staging.availableBytes(path.join(root.realRoot, 'no', 'such', 'f.bin'));
    expect(bytes).toBeGreaterThan(0);
  });
});
