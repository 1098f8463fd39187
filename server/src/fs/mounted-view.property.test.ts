/**
 * Grants mounted in a view (docs/teams.md) against a reference model: random grant names, access,
 * global and user rules, and paths through the grant (aliases, links out, `..`). Whatever they
 * are, a read through the grant answers exactly what the model says, never anything of the user's
 * own scope or beside the granted folder, and a write lands only when the grant allows creating.
 */
import { readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import type { GrantAccess, Rule } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../testing/hostile-paths.ts';
import { AppError } from '../errors.ts';
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
