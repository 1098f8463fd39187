/**
 * ScopedFs under random hostile paths (docs/security.md, "Fuzzed boundaries"): whatever the path,
 * nothing outside the scope, nothing a rule blocks and no hidden dotfile is read, listed, written,
 * moved or removed. The tree (scoped-fs.fixture.ts) has links that leave the scope, dangle, chain
 * and loop; this file adds a hard link, a link chain out and canaries everywhere a leak would land.
 */
import { createHash } from 'node:crypto';
import { link, mkdir, readdir, readFile, realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, hostilePath } from '../../testing/hostile-paths.ts';
import { AppError } from '../errors.ts';
import type { Rule } from '@cabinet/protocol';
import { isRealInside, virtualOfReal } from './canonical-path.ts';
import { FileRoot } from './file-root.ts';
import { ScopedFs } from './scoped-fs.ts';
import {
  base,
  block,
  outside,
  put,
  root,
  scope,
  status,
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

/** Real folders and files of the alias trees, relative to the scope. */
const ALIAS_FOLDERS = ['', 'docs', 'docs/sub', 'secret', 'secret/inner', 'pub', '.dot'];
const ALIAS_FILES = [
  'docs/d.txt',
  'docs/sub/e.txt',
  'secret/s.txt',
  'secret/inner/i.txt',
  'pub/p.txt',
  '.dot/x.txt',
];
const ALIAS_NAMES = ['al1', 'al2', 'up', 'Secret', '.al'];
/** Segments the paths are spelled with: real names and alias names. */
const SPELLED = [
  'docs',
  'sub',
  'secret',
  'inner',
  'pub',
  '.dot',
  'd.txt',
  'e.txt',
  's.txt',
  'i.txt',
  'p.txt',
  'x.txt',
  'SECRET',
  ...ALIAS_NAMES,
];
/** Rules drawn from: denials (some spelled in another case), and an allow below a denial. */
const ALIAS_RULES: Rule[] = [
  block('/secret'),
  block('/docs/sub'),
  block('/pub/p.txt'),
  block('/SECRET'),
  block('/Docs/Sub'),
  { regex: false, allow: true, path: '/secret/inner', regexp: null },
  { regex: true, allow: false, path: '', regexp: { raw: '\\.txt$' } },
];

/** One symlink: its folder, its name, and what it points to (a folder, a file or another link). */
const aliasArb = fc.record({
  folder: fc.constantFrom(...ALIAS_FOLDERS),
  name: fc.constantFrom(...ALIAS_NAMES),
  target: fc.constantFrom(
    ...ALIAS_FOLDERS,
    ...ALIAS_FILES,
    'al1',
    'docs/al2',
    'docs/sub/up',
    'secret/Secret',
  ),
});

const aliasTreeArb = fc.record({
  aliases: fc.uniqueArray(aliasArb, {
    minLength: 1,
    maxLength: 6,
    selector: (alias) => `${alias.folder}/${alias.name}`,
  }),
  rules: fc.subarray(ALIAS_RULES),
  hideDotfiles: fc.boolean(),
  caseInsensitive: fc.boolean(),
  paths: fc.array(fc.array(fc.constantFrom(...SPELLED), { minLength: 1, maxLength: 5 }), {
    minLength: 8,
    maxLength: 8,
  }),
});

/** Builds one random alias tree in a fresh root; returns the view and the scope's real path. */
async function aliasTree(
  run: number,
  tree: {
    aliases: { folder: string; name: string; target: string }[];
    rules: Rule[];
    hideDotfiles: boolean;
    caseInsensitive: boolean;
  },
): Promise<{ fs: ScopedFs; scopeReal: string }> {
  const treeRoot = path.join(base, 'alias-runs', String(run), 'root');
  const home = path.join(treeRoot, 'home');
  for (const folder of ALIAS_FOLDERS) await mkdir(path.join(home, folder), { recursive: true });
  for (const file of ALIAS_FILES) await put(path.join(home, file), `content of ${file}`);
  for (const alias of tree.aliases) {
    const relative = path.relative(alias.folder, alias.target) || '.';
    await symlink(relative, path.join(home, alias.folder, alias.name));
  }
  const files = await FileRoot.open({
    root: treeRoot,
    dataDir: path.join(base, 'alias-runs', String(run), 'data'),
    caseInsensitive: tree.caseInsensitive,
  });
  const fs = await ScopedFs.open(files, {
    scope: '/home',
    rules: tree.rules,
    hideDotfiles: tree.hideDotfiles,
  });
  return { fs, scopeReal: await realpath(home) };
}

/** Names of a listing, or the status it was refused with. */
async function listed(fs: ScopedFs, virtual: string): Promise<string[] | number> {
  try {
    return (await fs.list(virtual)).entries.map((entry) => entry.name);
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

/** Names a walk yields (relative to the walked folder), or the status it was refused with. */
async function walked(fs: ScopedFs, virtual: string): Promise<string[] | number> {
  try {
    const found: string[] = [];
    const cut = virtual === '/' ? 1 : virtual.length + 1;
    for await (const entry of fs.walk(virtual)) found.push(entry.path.slice(cut));
    return found;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

describe('ScopedFs through aliases (symlinks back into the scope)', () => {
  it('answers for an alias exactly what it answers for the real path', async () => {
    let run = 0;
    let throughAliases = 0;
    await fc.assert(
      fc.asyncProperty(aliasTreeArb, async (tree) => {
        const { fs, scopeReal } = await aliasTree(run++, tree);
        for (const segments of tree.paths) {
          const spelled = `/${segments.join('/')}`;
          // The oracle: where the item really is, by the kernel's realpath of its folder.
          const parentReal = await realpath(path.join(scopeReal, ...segments.slice(0, -1))).catch(
            () => null,
          );
          if (parentReal === null || !isRealInside(parentReal, scopeReal)) continue;
          const name = segments[segments.length - 1]!;
          const direct = virtualOfReal(path.join(parentReal, name), scopeReal);
          if (direct !== spelled) throughAliases++;
          const aliasStatus = await status(fs.resolve(spelled));
          const directStatus = await status(fs.resolve(direct));
          // The spelling is judged too: an alias never reaches more than the direct path, and
          // reaches exactly as much when its own spelling is allowed.
          if (!fs.isAllowed(spelled)) {
            expect(aliasStatus, spelled).toBe(403);
            continue;
          }
          expect(aliasStatus, `${spelled} (really ${direct})`).toBe(directStatus);
          if (aliasStatus !== 0) continue;
          const [aliasResolved, directResolved] = [
            await fs.resolve(spelled),
            await fs.resolve(direct),
          ];
          expect(aliasResolved.real).toBe(directResolved.real);
          expect(aliasResolved.realPath).toBe(directResolved.realPath);
          const aliasList = await listed(fs, spelled);
          const directList = await listed(fs, direct);
          if (typeof directList === 'number') expect(aliasList).toBe(directList);
          else {
            const visible = directList.filter((child) => fs.isAllowed(`${spelled}/${child}`));
            expect(aliasList, `listing ${spelled} (really ${direct})`).toEqual(visible);
          }
          const aliasWalk = await walked(fs, spelled);
          const directWalk = await walked(fs, direct);
          if (typeof directWalk === 'number') expect(aliasWalk).toBe(directWalk);
          else {
            const visible = directWalk.filter((child) =>
              child
                .split('/')
                .every((_, i, all) => fs.isAllowed(`${spelled}/${all.slice(0, i + 1).join('/')}`)),
            );
            expect(aliasWalk, `walking ${spelled} (really ${direct})`).toEqual(visible);
          }
        }
      }),
      { numRuns: fuzzRuns(150) },
    );
    // The generator does spell paths through aliases.
    expect(throughAliases).toBeGreaterThan(0);
  });
});
