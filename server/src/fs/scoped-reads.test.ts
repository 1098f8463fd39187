import path from 'node:path';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ScopedFs } from './scoped-fs.ts';
import {
  block,
  files,
  outside,
  put,
  scope,
  status,
  useScopedTree,
  view,
} from './scoped-fs.fixture.ts';

useScopedTree();

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
