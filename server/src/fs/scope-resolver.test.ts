import path from 'node:path';
import { symlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileRoot } from './file-root.ts';
import { ScopedFs } from './scoped-fs.ts';
import {
  base,
  block,
  files,
  outside,
  put,
  root,
  scope,
  status,
  useScopedTree,
  view,
} from './scoped-fs.fixture.ts';

useScopedTree();

describe('ScopedFs.resolve', () => {
  it('resolves the scope root, files and missing paths', async () => {
    const fs = await view();
    const top = await fs.resolve('/');
    expect(top.path).toBe('/');
    expect(top.stat?.isDirectory()).toBe(true);
    const file = await fs.resolve('dir//b.txt');
    expect(file.path).toBe('/dir/b.txt');
    expect(file.real).toBe(path.join(fs.scopeReal, 'dir', 'b.txt'));
    expect(file.stat?.size).toBe(5);
    const missing = await fs.resolve('/new/deeper/file.txt');
    expect(missing.stat).toBeNull();
    expect(missing.real).toBe(path.join(fs.scopeReal, 'new', 'deeper', 'file.txt'));
  });

  it('keeps the trailing slash meaning', async () => {
    const fs = await view();
    expect((await fs.resolve('/dir/')).trailingSlash).toBe(true);
    expect((await fs.resolve('/dir')).trailingSlash).toBe(false);
  });

  it.each([
    '../other-user/theirs.txt',
    '/../../outside/secret.txt',
    '..\\..\\outside\\secret.txt',
    '/dir/../../other-user/theirs.txt',
  ])('confines %j lexically to the scope (404, never the outside file)', async (raw) => {
    const fs = await view();
    const resolved = await fs.resolve(raw);
    expect(resolved.real.startsWith(fs.scopeReal + path.sep)).toBe(true);
    expect(resolved.stat).toBeNull();
  });

  it.each([
    ['/link-out', 403],
    ['/link-out/secret.txt', 403],
    ['/link-out/new-file', 403],
    ['/link-out-rel', 403],
    ['/dangling-out', 403],
    ['/sibling/theirs.txt', 403],
    ['/sibling/new', 403],
    ['/loop-a', 403],
    ['/a.txt/child', 404],
    ['/bad\0name', 400],
  ])('answers %j with %i', async (raw, expected) => {
    const fs = await view();
    expect(await status(fs.resolve(raw))).toBe(expected);
  });

  it('follows in-scope links, including dangling ones', async () => {
    const fs = await view();
    const dirLink = await fs.resolve('/link-in/b.txt');
    expect(dirLink.real).toBe(path.join(fs.scopeReal, 'dir', 'b.txt'));
    const viaLink = await fs.resolve('/link-in');
    expect(viaLink.isSymlink).toBe(true);
    expect(viaLink.stat?.isDirectory()).toBe(true);
    expect(viaLink.entry).toBe(path.join(fs.scopeReal, 'link-in'));
    const dangling = await fs.resolve('/dangling-in');
    expect(dangling.isSymlink).toBe(true);
    expect(dangling.stat).toBeNull();
    expect(dangling.real).toBe(path.join(fs.scopeReal, 'missing.txt'));
  });

  it('refuses a scope folder that is a symlink out of the root', async () => {
    await symlink(outside, path.join(root, 'escape'));
    expect(await status(view({ scope: '/escape' }))).toBe(403);
    const lexical = await view({ scope: '../../..' });
    expect(lexical.scopeReal).toBe(files.realRoot);
  });

  it('applies rules on segment boundaries, last match wins, to links by their target', async () => {
    const fs = await view({ rules: [block('/private'), block('/uploads')] });
    expect(await status(fs.resolve('/private'))).toBe(403);
    expect(await status(fs.resolve('/private/s.txt'))).toBe(403);
    expect(await status(fs.resolve('/private/missing'))).toBe(403);
    expect(await status(fs.resolve('/uploads/u.txt'))).toBe(403);
    expect((await fs.resolve('/uploads_backup/x.txt')).stat).not.toBeNull();
    expect(await status(fs.resolve('/link-private'))).toBe(403);
    expect(await status(fs.resolve('/./private//s.txt'))).toBe(403);
    // A backslash is part of a name: `\\private\\s.txt` is another (missing) file at the top.
    const lookalike = await fs.resolve('\\private\\s.txt');
    expect(lookalike.path).toBe('/\\private\\s.txt');
    expect(lookalike.stat).toBeNull();
  });

  it('folds case of path rules when the file system folds case', async () => {
    const folding = await FileRoot.open({
      root,
      dataDir: path.join(base, 'data'),
      caseInsensitive: true,
    });
    const fs = await ScopedFs.open(folding, {
      scope: '/home',
      rules: [block('/private')],
      hideDotfiles: false,
    });
    expect(await status(fs.resolve('/PRIVATE/s.txt'))).toBe(403);
    expect(await status(fs.resolve('/Private'))).toBe(403);
    const strict = await view({ rules: [block('/private')] });
    expect(await status(strict.resolve('/PRIVATE/s.txt'))).toBe(0);
  });

  it('hides dotfiles by their own base name only', async () => {
    const fs = await view({ hideDotfiles: true });
    expect(await status(fs.resolve('/.hidden'))).toBe(403);
    await put(path.join(scope, '.git', 'config'));
    expect((await fs.resolve('/.git/config')).stat).not.toBeNull();
  });

  it('refuses to address temp files directly', async () => {
    const fs = await view();
    expect(await status(fs.resolve('/.cabinet-tmp-0123'))).toBe(403);
  });

  it('applies rules to owner-original paths under a rule prefix', async () => {
    const fs = await view({ scope: '/home/dir', rulePrefix: '/dir', rules: [block('/dir/sub')] });
    expect(await status(fs.resolve('/sub/c.txt'))).toBe(403);
    expect((await fs.resolve('/b.txt')).stat).not.toBeNull();
  });
});
