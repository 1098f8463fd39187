import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { block, files, put, scope, status, useScopedTree, view } from './scoped-fs.fixture.ts';

useScopedTree();

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

  it('lists a big folder through find, and through the thread pool once find is stopped', async () => {
    await put(path.join(scope, 'big', 'f0.txt'));
    for (let i = 1; i < 2_500; i++)
      await writeFile(path.join(scope, 'big', `f${i}.txt`), 'x'.repeat(i % 7));
    const fs = await view();
    const { entries } = await fs.list('/big');
    expect(entries).toHaveLength(2_500);
    expect(entries.every((entry) => entry.stat?.isFile())).toBe(true);
    expect(entries.find((entry) => entry.name === 'f13.txt')?.stat?.size).toBe(6);
    files.findStats.stop();
    const again = await fs.list('/big');
    expect(again.entries.map((entry) => [entry.name, entry.stat?.size])).toEqual(
      entries.map((entry) => [entry.name, entry.stat?.size]),
    );
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
