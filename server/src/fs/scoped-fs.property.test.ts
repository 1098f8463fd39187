/**
 * ScopedFs under random hostile paths (docs/security.md, "Fuzzed boundaries"): whatever the path,
 * nothing outside the scope, nothing a rule blocks and no hidden dotfile is read, listed, written,
 * moved or removed. The tree (scoped-fs.fixture.ts) has links that leave the scope, dangle, chain
 * and loop; this file adds a hard link, a link chain out and canaries everywhere a leak would land.
 */
import { createHash } from 'node:crypto';
import { link, readdir, readFile, realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, hostilePath } from '../../testing/hostile-paths.ts';
import { AppError } from '../errors.ts';
import { isRealInside } from './canonical-path.ts';
import {
  base,
  block,
  outside,
  put,
  root,
  scope,
  useScopedTree,
  view,
} from './scoped-fs.fixture.ts';

useScopedTree();

/** Contents and names that must never come out of the view. */
const CANARIES = ['top secret', 'theirs', 'private', 'dot', 'OUTSIDE-ONLY', 'CHAIN-CANARY'];
const HIDDEN_NAMES = ['secret.txt', 'theirs.txt', 's.txt', '.hidden', 'outside-only-name.txt'];

/** Names the generator draws from: what the tree holds, plus the names of things outside it. */
const NAMES = [
  'a.txt',
  'dir',
  'b.txt',
  'sub',
  'c.txt',
  '.hidden',
  'private',
  's.txt',
  'uploads',
  'u.txt',
  'uploads_backup',
  'link-in',
  'link-out',
  'link-out-rel',
  'dangling-out',
  'dangling-in',
  'link-private',
  'sibling',
  'loop-a',
  'loop-b',
  'chain-1',
  'hard.txt',
  'new.txt',
  'home',
  'root',
  'outside',
  'other-user',
  'secret.txt',
  'theirs.txt',
];

/** A digest of every file and link under a folder: what a property must leave unchanged. */
async function snapshot(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (folder: string): Promise<void> => {
    for (const entry of (await readdir(folder, { withFileTypes: true })).sort((x, y) =>
      x.name.localeCompare(y.name),
    )) {
      const full = path.join(folder, entry.name);
      hash.update(`${full}\n`);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) hash.update(await readFile(full));
    }
  };
  await visit(dir);
  return hash.digest('hex');
}

/** The outcome of one operation: refused with an AppError (any status under 500) or done. */
async function attempt<T>(operation: () => Promise<T>): Promise<T | undefined> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.status).toBeLessThan(500);
    return undefined;
  }
}

async function addHostileExtras(): Promise<void> {
  await put(path.join(outside, 'outside-only-name.txt'), 'OUTSIDE-ONLY');
  await put(path.join(outside, 'chain-target.txt'), 'CHAIN-CANARY');
  // A chain of links whose last hop leaves the scope.
  await symlink('chain-2', path.join(scope, 'chain-1'));
  await symlink('../../outside/chain-target.txt', path.join(scope, 'chain-2'));
  // A hard link is the same file under another name: one inside to an inside file is in scope.
  await link(path.join(scope, 'a.txt'), path.join(scope, 'hard.txt'));
}

const hostileView = () => view({ rules: [block('/private')], hideDotfiles: true });

describe('ScopedFs under hostile paths', () => {
  it('never reads, lists or resolves anything outside the scope, blocked or hidden', async () => {
    await addHostileExtras();
    const fs = await hostileView();
    const scopeReal = await realpath(scope);
    let reads = 0;
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(hostilePath(NAMES), async (virtual) => {
        const resolved = await attempt(() => fs.resolve(virtual));
        if (resolved) expect(isRealInside(resolved.real, scopeReal)).toBe(true);
        const content = await attempt(() => fs.readAll(virtual, 1 << 20));
        if (content) reads++;
        else refusals++;
        if (content) for (const canary of CANARIES) expect(content.toString()).not.toBe(canary);
        const listed = await attempt(() => fs.list(virtual));
        for (const entry of listed?.entries ?? []) expect(HIDDEN_NAMES).not.toContain(entry.name);
        const walked = await attempt(async () => {
          const names: string[] = [];
          for await (const entry of fs.walk(virtual)) names.push(path.posix.basename(entry.path));
          return names;
        });
        for (const name of walked ?? []) expect(HIDDEN_NAMES).not.toContain(name);
      }),
      { numRuns: fuzzRuns(1000) },
    );
    // The generator reaches real files as well as refusals, so the checks above ran on both.
    expect(reads).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
  });

  it('never writes, moves or removes anything outside the scope, blocked or hidden', async () => {
    await addHostileExtras();
    const fs = await hostileView();
    const guarded = [outside, path.join(root, 'other-user'), path.join(scope, 'private')];
    const before = await Promise.all(guarded.map(snapshot));
    const hidden = await readFile(path.join(scope, '.hidden'), 'utf8');
    const pair = fc.tuple(hostilePath(NAMES), hostilePath(NAMES));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('write', 'mkdir', 'remove', 'copy', 'move'),
        pair,
        async (op, [from, to]) => {
          switch (op) {
            case 'write':
              await attempt(() => fs.writeFile(from, 'FUZZ', { override: true }));
              break;
            case 'mkdir':
              await attempt(() => fs.mkdir(from));
              break;
            case 'remove':
              await attempt(() => fs.remove(from));
              break;
            case 'copy':
              await attempt(() => fs.copy(from, to, { override: true }));
              break;
            case 'move':
              await attempt(() => fs.move(from, to, { override: true }));
              break;
          }
          expect(await Promise.all(guarded.map(snapshot))).toEqual(before);
          expect(await readFile(path.join(scope, '.hidden'), 'utf8')).toBe(hidden);
        },
      ),
      { numRuns: fuzzRuns(500) },
    );
    // Nothing was created beside the scope either.
    expect((await readdir(base)).sort()).toEqual(['data', 'outside', 'root']);
    expect((await readdir(root)).sort()).toEqual(['home', 'other-user']);
    expect((await stat(path.join(outside, 'secret.txt'))).size).toBe('top secret'.length);
  });
});
