/**
 * The tree the ScopedFs unit tests share: a scope `/home` under a root, an outside folder, and
 * links that stay in, leave the scope, dangle and loop. useScopedTree() builds it afresh for every
 * test; the tree's paths are live exports, read after the set-up ran.
 */
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Rule } from '@cabinet/protocol';
import { afterEach, beforeEach } from 'vitest';
import { AppError } from '../errors.ts';
import { FileRoot } from './file-root.ts';
import { ScopedFs, type ScopedFsOptions } from './scoped-fs.ts';

/** A path rule that blocks `p`. */
export const block = (p: string): Rule => ({ regex: false, allow: false, path: p, regexp: null });

export let base: string;
export let root: string;
export let scope: string;
export let outside: string;
export let files: FileRoot;

/** Writes a file, creating its folders. */
export async function put(file: string, content = 'x') {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** The status of the AppError a promise rejects with, or 0 when it resolves. */
export async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

/** A view of `/home` with no rules unless given. */
export function view(options: Partial<ScopedFsOptions> = {}) {
  return ScopedFs.open(files, { scope: '/home', rules: [], hideDotfiles: false, ...options });
}

/** Names in a real folder, temp files included (to prove none is left behind). */
export const namesOnDisk = (dir: string) => readdirSync(dir).sort();

/** Builds the tree before each test of the calling file and removes it after. */
export function useScopedTree(): void {
  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-sfs-'));
    root = path.join(base, 'root');
    scope = path.join(root, 'home');
    outside = path.join(base, 'outside');
    await put(path.join(outside, 'secret.txt'), 'top secret');
    await put(path.join(root, 'other-user', 'theirs.txt'), 'theirs');
    await put(path.join(scope, 'a.txt'), 'alpha');
    await put(path.join(scope, 'dir', 'b.txt'), 'bravo');
    await put(path.join(scope, 'dir', 'sub', 'c.txt'), 'charlie');
    await put(path.join(scope, '.hidden'), 'dot');
    await put(path.join(scope, 'private', 's.txt'), 'private');
    await put(path.join(scope, 'uploads', 'u.txt'), 'u');
    await put(path.join(scope, 'uploads_backup', 'x.txt'), 'x');
    await symlink('dir', path.join(scope, 'link-in'));
    await symlink(outside, path.join(scope, 'link-out'));
    await symlink('../../outside/secret.txt', path.join(scope, 'link-out-rel'));
    await symlink(path.join(outside, 'nonexistent'), path.join(scope, 'dangling-out'));
    await symlink('missing.txt', path.join(scope, 'dangling-in'));
    await symlink('private/s.txt', path.join(scope, 'link-private'));
    await symlink('../other-user', path.join(scope, 'sibling'));
    await symlink('loop-b', path.join(scope, 'loop-a'));
    await symlink('loop-a', path.join(scope, 'loop-b'));
    files = await FileRoot.open({ root, dataDir: path.join(base, 'data') });
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });
}
