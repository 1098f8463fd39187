/**
 * Grants mounted in a view (docs/teams.md) against a reference model: random grant names, access,
 * global and user rules, and paths through the grant (aliases, links out, `..`). Whatever they
 * are, a read through the grant answers exactly what the model says, never anything of the user's
 * own scope or beside the granted folder, and a write lands only when the grant allows creating.
 * Listings inside the grant, listed again and again with changes in between, answer from the
 * listing cache exactly what a fresh read answers (the cache holds every name of a folder,
 * whatever anyone's rules: each listing from it must judge them again).
 */
import { readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import type { GrantAccess, Rule } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../testing/hostile-paths.ts';
import { AppError } from '../errors.ts';
import { EntryBudget } from '../services/resources/listing-memory.ts';
import { ListingCache, type ListingCacheSource } from '../tree/listing/listing-cache.ts';
import { listingJson, readListing } from '../services/resources/listing.ts';
import type { FileRoot } from './file-root.ts';
import { block, files, put, root, useScopedTree } from './scoped-fs.fixture.ts';
import { ScopedFs } from './scoped-fs.ts';

useScopedTree();

const TEAM_FILES: Record<string, string> = {
  '/a.txt': 'TEAM-A',
  '/sub/b.txt': 'TEAM-B',
  '/secret/s.txt': 'TEAM-SECRET',
};
const OWN_CANARIES = ['alpha', 'bravo', 'OWN-DESIGN', 'top secret', 'theirs', 'BESIDE'];

/** Inner paths a request may spell (the model knows where each lands). */
const SPELLINGS = [
  '/a.txt',
  '/sub/b.txt',
  '/secret/s.txt',
  '/link-in/b.txt',
  '/link-out/a.txt',
  '/link-out/dir/b.txt',
  '/../a.txt',
  '/sub/../a.txt',
  '/missing.txt',
  '/../../other-user/theirs.txt',
];

function under(p: string, folder: string): boolean {
  return p === folder || p.startsWith(`${folder}/`);
}

/** The model: the content a read of `inner` (spelled under the grant at `mount`) answers. */
function expected(
  mount: string,
  spelled: string,
  globalSecret: boolean,
  userBlocks: string[],
): string | null {
  const inner = path.posix.normalize(spelled);
  const clean = inner.startsWith('/..') ? inner.replace(/^(\/\.\.)+/, '') || '/' : inner;
  if (under(clean, '/link-out')) return null; // leads into the user's own scope: outside
  const real = clean.replace(/^\/link-in(?=\/|$)/, '/sub');
  const blockedInner = globalSecret && (under(clean, '/secret') || under(real, '/secret'));
  const outer = (p: string) => `${mount}${p}`;
  const blockedOuter = userBlocks.some(
    (rule) => under(outer(clean), `${mount}${rule}`) || under(outer(real), `${mount}${rule}`),
  );
  if (blockedInner || blockedOuter) return null;
  return TEAM_FILES[real] ?? null;
}

const accessArb: fc.Arbitrary<GrantAccess> = fc.record({
  create: fc.boolean(),
  rename: fc.boolean(),
  modify: fc.boolean(),
  delete: fc.boolean(),
  share: fc.boolean(),
});

describe('a team folder mounted in a view', () => {
  it('answers reads and writes as the reference model does', async () => {
    for (const [file, content] of Object.entries(TEAM_FILES)) {
      await put(path.join(root, 'team', file), content);
    }
    await put(path.join(root, 'home', 'Design', 'mine.txt'), 'OWN-DESIGN');
    await put(path.join(root, 'beside.txt'), 'BESIDE');
    await symlink('sub', path.join(root, 'team', 'link-in'));
    await symlink('../home', path.join(root, 'team', 'link-out'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Design', 'Team', 'a.txt', 'dir'),
        accessArb,
        fc.boolean(),
        fc.subarray(['/secret', '/sub', '/link-in']),
        fc.constantFrom(...SPELLINGS),
        async (name, access, globalSecret, userBlocks, spelled) => {
          const global: Rule[] = globalSecret ? [block('/secret')] : [];
          // The user's own scope holds `a.txt`, `dir` and `Design`: those grants are renamed.
          const mount = ['Design', 'a.txt', 'dir'].includes(name) ? `/${name} (team)` : `/${name}`;
          const user = userBlocks.map((rule) => block(`${mount}${rule}`));
          const fs = await ScopedFs.withMounts(
            files,
            { scope: '/home', rules: [...global, ...user], hideDotfiles: false },
            [
              {
                kind: 'team',
                id: 1,
                name,
                scope: '/team',
                isDir: true,
                rules: global,
                hideDotfiles: false,
                access,
                quota: 0,
                expire: 0,
              },
            ],
          );
          expect((await fs.mountList()).map((m) => m.path)).toEqual([mount]);
          const want = expected(mount, spelled, globalSecret, userBlocks);
          const requested = `${mount}${spelled}`;
          const got = await fs.readAll(requested, 1024).then(
            (bytes) => bytes.toString('utf8'),
            (error: unknown) => {
              if (error instanceof AppError) return null;
              throw error;
            },
          );
          // A `..` climbing out of the grant lands in the user's own scope: the own file there.
          if (path.posix.normalize(requested).split('/')[1] !== mount.slice(1)) {
            expect(OWN_CANARIES.filter((c) => c !== 'alpha' && c !== 'bravo')).not.toContain(got);
            return;
          }
          expect(got).toBe(want);
          for (const canary of OWN_CANARIES) expect(got).not.toBe(canary);
          const written = await fs.writeFile(`${mount}/new.txt`, 'NEW').then(
            () => true,
            () => false,
          );
          expect(written).toBe(access.create);
          if (written) {
            expect(await readFile(path.join(root, 'team', 'new.txt'), 'utf8')).toBe('NEW');
            await rm(path.join(root, 'team', 'new.txt'));
          }
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});

/**
 * The listing cache's watches, for a test whose every change goes through ScopedFs: its change
 * feed reports them all, so every folder counts as watched.
 */
function changeFeed(root: FileRoot): ListingCacheSource {
  return {
    isWatched: () => true,
    onPathChanged: (listener) =>
      root.changes.on((change) => {
        listener(change.real);
        if (change.to) listener(change.to);
      }),
    onResync: () => () => undefined,
    childrenOf: () => null,
  };
}

/** The names a listing answers, as its JSON says. */
async function listedNames(
  fs: ScopedFs,
  shown: string,
  budget: EntryBudget,
  cache?: ListingCache,
): Promise<string[] | number> {
  const dir = await fs.stat(shown).catch((error: unknown) => {
    if (error instanceof AppError) return error.status;
    throw error;
  });
  if (typeof dir === 'number') return dir;
  // A write may have put a file where a folder was.
  if (!dir.stat.isDirectory()) return 0;
  const listing = await readListing(fs, dir, dir.path, { by: 'name', asc: true }, budget, cache);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of listingJson(listing)) chunks.push(Buffer.from(chunk));
  } finally {
    listing.done();
  }
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: { name: string }[] };
  return body.items.map((item) => item.name);
}

const TEAM_TREE = ['/a.txt', '/private/p.txt', '/.dot.txt', '/sub/b.txt', '/sub/private.txt'];
const FOLDERS = ['', '/sub', '/private', '/sub/.hidden'];
const NEW_NAMES = ['c.txt', 'private', '.e.txt', 'Private.txt', 'notes.md'];

type Step =
  { kind: 'list'; folder: number } | { kind: 'write' | 'remove'; folder: number; name: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('list' as const), folder: fc.nat(3) }) },
  fc.record({
    kind: fc.constantFrom('write' as const, 'remove' as const),
    folder: fc.nat(3),
    name: fc.nat(NEW_NAMES.length - 1),
  }),
);

describe('listings inside a team folder, listed again and again', () => {
  it('answer from the listing cache what a fresh read answers, changes in between', async () => {
    for (const file of TEAM_TREE) await put(path.join(root, 'team', file), 'x');
    // One cache for every case, as one server's cache serves every user whatever their rules.
    const cache = new ListingCache(changeFeed(files), 16 * 1024 * 1024);
    const budget = new EntryBudget(100_000, 10_000);
    const writer = await ScopedFs.open(files, { scope: '/team', rules: [], hideDotfiles: false });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.subarray([block('/private'), block('/sub/private.txt'), block('/notes.md')]),
          fc.boolean(),
          fc.subarray(['/sub', '/c.txt', '/sub/notes.md']),
          fc.boolean(),
          fc.array(stepArb, { minLength: 4, maxLength: 16 }),
          async (ownerRules, ownerDots, userBlocks, userDots, steps) => {
            const fs = await ScopedFs.withMounts(
              files,
              {
                scope: '/home',
                rules: userBlocks.map((rule) => block(`/Team${rule}`)),
                hideDotfiles: userDots,
              },
              [
                {
                  kind: 'team',
                  id: 1,
                  name: 'Team',
                  scope: '/team',
                  isDir: true,
                  rules: ownerRules,
                  hideDotfiles: ownerDots,
                  access: { create: true, rename: true, modify: true, delete: true, share: false },
                  quota: 0,
                  expire: 0,
                },
              ],
            );
            for (const step of steps) {
              const folder = FOLDERS[step.folder]!;
              if (step.kind === 'list') {
                const shown = `/Team${folder}`;
                const cached = await listedNames(fs, shown, budget, cache);
                expect(cached).toEqual(await listedNames(fs, shown, budget));
                // Listed once more: now surely from what the cache kept.
                expect(await listedNames(fs, shown, budget, cache)).toEqual(cached);
                if (Array.isArray(cached)) {
                  if (ownerDots || userDots) {
                    expect(cached.filter((name) => name.startsWith('.'))).toEqual([]);
                  }
                  if (folder === '' && ownerRules.some((rule) => rule.path === '/private')) {
                    expect(cached).not.toContain('private');
                  }
                }
              } else {
                const target = `${folder}/${NEW_NAMES[step.name]!}`;
                if (step.kind === 'write') {
                  await writer.mkdir(folder || '/').catch(() => undefined);
                  await writer.writeFile(target, 'x', { override: true }).catch(() => undefined);
                } else {
                  await writer.remove(target).catch(() => undefined);
                }
              }
            }
          },
        ),
        { numRuns: fuzzRuns(100) },
      );
    } finally {
      cache.close();
    }
  });
});
