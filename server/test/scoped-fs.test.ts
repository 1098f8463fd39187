import { existsSync, readdirSync, readFileSync, lstatSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Rule } from '@cabinet/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import type { FileChange } from '../src/fs/changes.ts';
import { FileRoot } from '../src/fs/file-root.ts';
import { ScopedFs, type ScopedFsOptions } from '../src/fs/scoped-fs.ts';
import { isTempName } from '../src/fs/temp-files.ts';

const block = (p: string): Rule => ({ regex: false, allow: false, path: p, regexp: null });

let base: string;
let root: string;
let scope: string;
let outside: string;
let files: FileRoot;

async function put(file: string, content = 'x') {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

function view(options: Partial<ScopedFsOptions> = {}) {
  return ScopedFs.open(files, { scope: '/home', rules: [], hideDotfiles: false, ...options });
}

/** Names in a real folder, temp files included (to prove none is left behind). */
const namesOnDisk = (dir: string) => readdirSync(dir).sort();

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

describe('ScopedFs.list and walk', () => {
  it('omits denied, hidden, escaping and temp entries and reports broken links', async () => {
    await put(path.join(scope, '.cabinet-tmp-abc'));
    const fs = await view({ rules: [block('/private')], hideDotfiles: true });
    const { entries } = await fs.list('/');
    const names = entries.map((e) => e.name);
    expect(names).toEqual(['a.txt', 'dangling-in', 'dir', 'link-in', 'uploads', 'uploads_backup']);
    const dangling = entries.find((e) => e.name === 'dangling-in')!;
    expect(dangling.stat).toBeNull();
    expect(dangling.isSymlink).toBe(true);
    const linkIn = entries.find((e) => e.name === 'link-in')!;
    expect(linkIn.stat?.isDirectory()).toBe(true);
  });

  it('reads the first bytes of the files asked for', async () => {
    const fs = await view();
    const { entries } = await fs.list('/dir', { wantHead: (name) => name === 'b.txt' });
    expect(entries.find((e) => e.name === 'b.txt')?.head?.toString()).toBe('bravo');
    expect(entries.find((e) => e.name === 'sub')?.head).toBeUndefined();
  });

  it('refuses to list a file', async () => {
    const fs = await view();
    expect(await status(fs.list('/a.txt'))).toBe(400);
  });

  it('walks depth first in name order, pruning denied folders and skipping links', async () => {
    const fs = await view({ rules: [block('/dir/sub')] });
    const seen: string[] = [];
    for await (const entry of fs.walk('/')) seen.push(entry.path);
    expect(seen).toContain('/dir/b.txt');
    expect(seen).not.toContain('/dir/sub');
    expect(seen).not.toContain('/dir/sub/c.txt');
    expect(seen).toContain('/link-in');
    expect(seen).not.toContain('/link-in/b.txt');
    expect(seen).not.toContain('/link-out');
    expect(seen.indexOf('/dir')).toBeLessThan(seen.indexOf('/dir/b.txt'));
  });

  it('stops walking when the signal aborts', async () => {
    const fs = await view();
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const entry of fs.walk('/', { signal: controller.signal })) {
      seen.push(entry.path);
      controller.abort();
    }
    expect(seen).toHaveLength(1);
  });
});

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
    const reopened = await FileRoot.open({ root, dataDir: path.join(base, 'data') });
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

describe('ScopedFs reads and usage', () => {
  it('reads ranges, heads and whole files', async () => {
    const fs = await view();
    const { stream, stat } = await fs.openRead('/dir/b.txt', { start: 1, end: 3 });
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text).toBe('rav');
    expect(stat.size).toBe(5);
    expect((await fs.readHead('/a.txt', 3)).toString()).toBe('alp');
    expect((await fs.readAll('/a.txt', 100)).toString()).toBe('alpha');
    expect(await status(fs.readAll('/a.txt', 2))).toBe(413);
    expect(await status(fs.openRead('/dir'))).toBe(400);
    expect(await status(fs.openRead('/link-out-rel'))).toBe(403);
  });

  it('opens a walked file only while it is still the file the walk saw', async () => {
    const fs = await view();
    const read = async (handle: Awaited<ReturnType<typeof fs.openKnown>>) => {
      try {
        return (await handle.readFile()).toString();
      } finally {
        await handle.close();
      }
    };
    const walked = new Map<string, Parameters<typeof fs.openKnown>[0]>();
    for await (const entry of fs.walk('/')) {
      if (entry.stat?.isFile()) walked.set(entry.path, { ...entry, stat: entry.stat });
    }
    expect(await read(await fs.openKnown(walked.get('/dir/sub/c.txt')!))).toBe('charlie');

    // The file was replaced since the walk: another inode, refused.
    await writeFile(path.join(scope, 'a.tmp'), 'replaced');
    await rm(path.join(scope, 'a.txt'));
    await writeFile(path.join(scope, 'a.txt'), 'replaced');
    expect(await status(fs.openKnown(walked.get('/a.txt')!))).toBe(404);

    // A folder swapped for a link to outside the scope since the walk: never read through.
    await put(path.join(outside, 'sub', 'c.txt'), 'outside data');
    await rm(path.join(scope, 'dir', 'sub'), { recursive: true });
    await symlink(path.join(outside, 'sub'), path.join(scope, 'dir', 'sub'));
    expect(await status(fs.openKnown(walked.get('/dir/sub/c.txt')!))).toBe(404);

    // Rules are checked at open time too.
    const ruled = await view({ rules: [block('/dir')] });
    expect(await status(ruled.openKnown(walked.get('/dir/b.txt')!))).toBe(403);
  });

  it('reports the volume of a folder and zeros for a file', async () => {
    const fs = await view();
    const usage = await fs.usage('/');
    expect(usage.total).toBeGreaterThan(0);
    expect(usage.used).toBeGreaterThan(0);
    expect(await fs.usage('/a.txt')).toEqual({ total: 0, used: 0 });
  });

  it('builds a view from a user record and the global rules', async () => {
    const fs = await ScopedFs.forUser(
      { files, settings: { get: async () => ({ rules: [block('/private')] }) } },
      { scope: '/home', rules: [], hideDotfiles: false },
    );
    expect(await status(fs.resolve('/private'))).toBe(403);
    expect(await readFile(path.join(fs.scopeReal, 'a.txt'), 'utf8')).toBe('alpha');
  });
});
