import path from 'node:path';
import { existsSync, readFileSync, lstatSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../tree/changes.ts';
import { FileRoot } from './file-root.ts';
import { ScopedFs } from './scoped-fs.ts';
import { isTempName } from './temp-files.ts';
import {
  base,
  block,
  files,
  namesOnDisk,
  outside,
  put,
  root,
  scope,
  status,
  useScopedTree,
  view,
} from './scoped-fs.fixture.ts';

useScopedTree();

describe('ScopedFs atomic writes', () => {
  it('creates files with their parents and reports the change', async () => {
    const fs = await view();
    const changes: FileChange[] = [];
    files.changes.on((change) => changes.push(change));
    const { stat } = await fs.writeFile('/new/deep/file.txt', Buffer.from('hello'));
    expect(stat.size).toBe(5);
    expect(readFileSync(path.join(scope, 'new', 'deep', 'file.txt'), 'utf8')).toBe('hello');
    expect(changes).toEqual([
      { kind: 'write', real: path.join(fs.scopeReal, 'new/deep/file.txt'), recursive: false },
    ]);
  });

  it('refuses to replace without override (409) and replaces with it', async () => {
    const fs = await view();
    expect(await status(fs.writeFile('/a.txt', Buffer.from('new')))).toBe(409);
    expect(readFileSync(path.join(scope, 'a.txt'), 'utf8')).toBe('alpha');
    await fs.writeFile('/a.txt', Readable.from([Buffer.from('ne'), Buffer.from('w')]), {
      override: true,
    });
    expect(readFileSync(path.join(scope, 'a.txt'), 'utf8')).toBe('new');
    expect(await status(fs.writeFile('/dir', Buffer.from('x'), { override: true }))).toBe(409);
  });

  it('keeps the original intact and leaves no temp file when the source fails midway', async () => {
    const fs = await view();
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    expect(await status(fs.writeFile('/a.txt', Readable.from(failing()), { override: true }))).toBe(
      500,
    );
    expect(readFileSync(path.join(scope, 'a.txt'), 'utf8')).toBe('alpha');
    expect(namesOnDisk(scope).filter(isTempName)).toEqual([]);
  });

  it('shows the old content until commit and nothing after abort', async () => {
    const fs = await view();
    const { write } = await fs.createWriteAtomic('/a.txt', { override: true });
    await write.pour('replacement');
    expect(readFileSync(path.join(scope, 'a.txt'), 'utf8')).toBe('alpha');
    expect((await fs.list('/')).entries.some((e) => isTempName(e.name))).toBe(false);
    await write.abort();
    expect(readFileSync(path.join(scope, 'a.txt'), 'utf8')).toBe('alpha');
    expect(namesOnDisk(scope).filter(isTempName)).toEqual([]);
  });

  it('writes through an in-scope link to its target and never through an escaping one', async () => {
    const fs = await view();
    await fs.writeFile('/link-in/b.txt', Buffer.from('via link'), { override: true });
    expect(readFileSync(path.join(scope, 'dir', 'b.txt'), 'utf8')).toBe('via link');
    expect(await status(fs.writeFile('/link-out/x', Buffer.from('x')))).toBe(403);
    expect(await status(fs.writeFile('/dangling-out', Buffer.from('x')))).toBe(403);
    expect(existsSync(path.join(outside, 'nonexistent'))).toBe(false);
    expect(existsSync(path.join(outside, 'x'))).toBe(false);
  });

  it('removes temp files of interrupted writes at the next start', async () => {
    const fs = await view();
    const { write } = await fs.createWriteAtomic('/crash.txt');
    await write.pour('half');
    expect(existsSync(write.tempPath)).toBe(true);
    // Another instance on the same data folder leaves a write in progress alone…
    await FileRoot.open({ root, dataDir: path.join(base, 'data') });
    expect(existsSync(write.tempPath)).toBe(true);
    // …and removes it once its writer is gone (temp-journal.test.ts kills a real process).
    const reopened = await FileRoot.open({
      root,
      dataDir: path.join(base, 'data'),
      journal: { ownerGone: () => true },
    });
    expect(reopened.realRoot).toBe(files.realRoot);
    expect(existsSync(write.tempPath)).toBe(false);
    expect(existsSync(path.join(scope, 'crash.txt'))).toBe(false);
    await write.abort();
  });

  it('keeps resumable temps across a restart', async () => {
    const fs = await view();
    const { write } = await fs.createWriteAtomic('/resume.bin', { tempKind: 'resumable' });
    await FileRoot.open({ root, dataDir: path.join(base, 'data') });
    expect(existsSync(write.tempPath)).toBe(true);
    expect((await files.journal.list('resumable')).map((e) => e.path)).toEqual([write.tempPath]);
    await write.pour('done');
    await write.commit();
    expect(readFileSync(path.join(scope, 'resume.bin'), 'utf8')).toBe('done');
    expect(await files.journal.list('resumable')).toEqual([]);
  });
});

describe('ScopedFs mkdir and remove', () => {
  it('creates folders, accepts existing ones and refuses over a file', async () => {
    const fs = await view();
    const made = await fs.mkdir('/x/y/z/');
    expect(made.stat?.isDirectory()).toBe(true);
    expect((await fs.mkdir('/dir')).stat?.isDirectory()).toBe(true);
    expect(await status(fs.mkdir('/a.txt'))).toBe(409);
    expect(await status(fs.mkdir('/link-out/new'))).toBe(403);
  });

  it('deletes files and folders but never the scope root', async () => {
    const fs = await view();
    await fs.remove('/dir');
    expect(existsSync(path.join(scope, 'dir'))).toBe(false);
    expect(await status(fs.remove('/'))).toBe(403);
    expect(await status(fs.remove('/../..'))).toBe(403);
    expect(await status(fs.remove('/nothing'))).toBe(404);
  });

  it('deletes a link, not its target, and a dangling in-scope link', async () => {
    const fs = await view();
    await fs.remove('/link-in');
    expect(existsSync(path.join(scope, 'dir', 'b.txt'))).toBe(true);
    expect(lstatSync(path.join(scope, 'dir')).isDirectory()).toBe(true);
    await fs.remove('/dangling-in');
    expect(existsSync(path.join(scope, 'dangling-in'))).toBe(false);
    expect(await status(fs.remove('/link-out'))).toBe(403);
    expect(existsSync(path.join(outside, 'secret.txt'))).toBe(true);
  });

  it('refuses the whole delete when a descendant is denied, changing nothing', async () => {
    const fs = await view({ rules: [block('/dir/sub/c.txt')] });
    expect(await status(fs.remove('/dir'))).toBe(403);
    expect(existsSync(path.join(scope, 'dir', 'b.txt'))).toBe(true);
    expect(existsSync(path.join(scope, 'dir', 'sub', 'c.txt'))).toBe(true);
  });

  it('deletes hidden dotfiles inside a folder (descendant checks use rules only)', async () => {
    await put(path.join(scope, 'dir', '.env'));
    const fs = await view({ hideDotfiles: true, rules: [block('/nothing')] });
    await fs.remove('/dir');
    expect(existsSync(path.join(scope, 'dir'))).toBe(false);
  });
});

describe('ScopedFs copy and move', () => {
  it('copies a file and a tree, following in-scope links and skipping escaping ones', async () => {
    await symlink('../link-out', path.join(scope, 'dir', 'escape'));
    await symlink('../a.txt', path.join(scope, 'dir', 'to-a'));
    await symlink('..', path.join(scope, 'dir', 'up'));
    const fs = await view();
    await fs.copy('/a.txt', '/copy.txt');
    expect(readFileSync(path.join(scope, 'copy.txt'), 'utf8')).toBe('alpha');
    await fs.copy('/dir', '/dir2');
    expect(readFileSync(path.join(scope, 'dir2', 'sub', 'c.txt'), 'utf8')).toBe('charlie');
    expect(readFileSync(path.join(scope, 'dir2', 'to-a'), 'utf8')).toBe('alpha');
    expect(lstatSync(path.join(scope, 'dir2', 'to-a')).isSymbolicLink()).toBe(false);
    expect(existsSync(path.join(scope, 'dir2', 'escape'))).toBe(false);
    expect(existsSync(path.join(scope, 'dir2', 'up'))).toBe(false);
    expect(namesOnDisk(path.join(scope, 'dir2')).filter(isTempName)).toEqual([]);
  });

  it('answers conflicts, overrides and folder-into-itself like the API', async () => {
    const fs = await view();
    expect(await status(fs.copy('/a.txt', '/dir/b.txt'))).toBe(409);
    await fs.copy('/a.txt', '/dir/b.txt', { override: true });
    expect(readFileSync(path.join(scope, 'dir', 'b.txt'), 'utf8')).toBe('alpha');
    expect(await status(fs.copy('/dir', '/dir/sub/inner'))).toBe(400);
    expect(await status(fs.move('/dir', '/dir/sub'))).toBe(400);
    expect(await status(fs.move('/dir', '/link-in/x'))).toBe(400);
    expect(await status(fs.copy('/', '/x'))).toBe(403);
    expect(await status(fs.move('/a.txt', '/'))).toBe(403);
    expect(await status(fs.copy('/a.txt', '/dir', { override: true }))).toBe(409);
    expect(await status(fs.copy('/missing', '/x'))).toBe(404);
    expect(await status(fs.copy('/a.txt', '/link-out/x'))).toBe(403);
    expect(await status(fs.copy('/link-out', '/x'))).toBe(403);
  });

  it('refuses copy and move when a source descendant or its counterpart is denied', async () => {
    const fs = await view({ rules: [block('/dir/sub/c.txt'), block('/target/b.txt')] });
    expect(await status(fs.copy('/dir', '/copied'))).toBe(403);
    expect(existsSync(path.join(scope, 'copied'))).toBe(false);
    expect(await status(fs.move('/dir', '/moved'))).toBe(403);
    expect(existsSync(path.join(scope, 'dir', 'sub', 'c.txt'))).toBe(true);
    expect(existsSync(path.join(scope, 'moved'))).toBe(false);
    await rm(path.join(scope, 'dir', 'sub'), { recursive: true });
    expect(await status(fs.move('/dir', '/target'))).toBe(403);
    expect(existsSync(path.join(scope, 'target'))).toBe(false);
    await fs.move('/dir', '/elsewhere');
    expect(readFileSync(path.join(scope, 'elsewhere', 'b.txt'), 'utf8')).toBe('bravo');
  });

  it('moves files and folders, merging into a non-empty folder with override', async () => {
    const fs = await view();
    const changes: FileChange[] = [];
    files.changes.on((change) => changes.push(change));
    await fs.move('/a.txt', '/dir/renamed.txt');
    expect(existsSync(path.join(scope, 'a.txt'))).toBe(false);
    expect(readFileSync(path.join(scope, 'dir', 'renamed.txt'), 'utf8')).toBe('alpha');
    expect(changes[0]?.kind).toBe('rename');
    await put(path.join(scope, 'merge', 'keep.txt'), 'keep');
    await put(path.join(scope, 'merge', 'b.txt'), 'old');
    expect(await status(fs.move('/dir', '/merge'))).toBe(409);
    await fs.move('/dir', '/merge', { override: true });
    expect(existsSync(path.join(scope, 'dir'))).toBe(false);
    expect(readFileSync(path.join(scope, 'merge', 'keep.txt'), 'utf8')).toBe('keep');
    expect(readFileSync(path.join(scope, 'merge', 'b.txt'), 'utf8')).toBe('bravo');
    expect(readFileSync(path.join(scope, 'merge', 'sub', 'c.txt'), 'utf8')).toBe('charlie');
  });

  it('moves a link as a link', async () => {
    const fs = await view();
    await fs.move('/link-in', '/link-moved');
    expect(lstatSync(path.join(scope, 'link-moved')).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(scope, 'dir', 'b.txt'))).toBe(true);
  });

  it('allows a case-only rename on a case-folding file system', async () => {
    const folding = await FileRoot.open({
      root,
      dataDir: path.join(base, 'data'),
      caseInsensitive: true,
    });
    const fs = await ScopedFs.open(folding, { scope: '/home', rules: [], hideDotfiles: false });
    await fs.move('/a.txt', '/A.txt');
    expect(existsSync(path.join(scope, 'A.txt'))).toBe(true);
  });
});
