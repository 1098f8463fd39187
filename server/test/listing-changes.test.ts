// Listings right after changes the listing cache and the name index cannot see by path alone: an
// ancestor moved away and back, a folder replaced in one step, a file appended to through a hard
// link (docs/benchmarks.md, "Listing cache"). Each listing is asked for at once, with no waiting
// for the watcher; search and live folders follow once the watch has reported.
import { appendFile, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resource } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderStamp } from '../src/tree/read/folder-stamp.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { openReady, type StreamEvent } from './helpers/event-stream.ts';
import { eventually, until } from './helpers/eventually.ts';
import { filesUnder, json } from './helpers/resources.ts';
import { watched } from './helpers/watched.ts';
import { searchedPaths } from './helpers/search.ts';

const names = (body: Resource) => body.items!.map((item) => item.name);

function listings(server: () => TestServer) {
  return async (virtual: string): Promise<Resource> => {
    const res = await server().fetch(`/api/resources${virtual}`, { token: server().admin.token });
    expect(res.status).toBe(200);
    return json(res);
  };
}

describe('listings after changes seen by stamp and inode', () => {
  let server: TestServer;
  const { put } = filesUnder(() => server.root);
  const list = listings(() => server);
  const at = (relative: string) => path.join(server.root, relative);
  const move = async (from: string, to: string) => {
    const res = await server.fetch(
      `/api/resources${from}?action=rename&destination=${encodeURIComponent(to)}`,
      { method: 'PATCH', token: server.admin.token },
    );
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists a file uploaded while an ancestor was moved away through Cabinet and back', async () => {
    await put('A/B/one.txt', '1');
    await watched(server, 'A/B');
    expect(names(await list('/A/B/'))).toEqual(['one.txt']);
    await move('/A', '/Z');
    const res = await server.fetch('/api/resources/Z/B/new.txt', {
      method: 'POST',
      token: server.admin.token,
      body: 'new',
    });
    expect(res.status).toBe(200);
    await move('/Z', '/A');
    expect(names(await list('/A/B/'))).toEqual(['new.txt', 'one.txt']);
  });

  it('lists a file written while an ancestor was moved away by another program and back', async () => {
    await put('C/D/one.txt', '1');
    await watched(server, 'C/D');
    expect(names(await list('/C/D/'))).toEqual(['one.txt']);
    await rename(at('C'), at('Y'));
    await writeFile(at('Y/D/new.txt'), 'new');
    await rename(at('Y'), at('C'));
    expect(names(await list('/C/D/'))).toEqual(['new.txt', 'one.txt']);
  });

  it('shows a file written in place while its folder was moved away and back by another program', async () => {
    await put('E/F/log.txt', 'one');
    await watched(server, 'E/F');
    const size = async (folder: string) =>
      (await list(folder)).items!.find((item) => item.name === 'log.txt')?.size;
    expect(await size('/E/F/')).toBe(3);
    await rename(at('E'), at('W'));
    await watched(server, 'W/F');
    await writeFile(at('W/F/log.txt'), 'one two'); // in place: the folder's stamp stays
    await eventually(
      () => size('/W/F/'),
      (bytes) => bytes === 7,
    );
    await rename(at('W'), at('E'));
    expect(await size('/E/F/')).toBe(7);
  });

  const replacements: [string, (real: string) => Promise<void>][] = [
    [
      'rm -rf X && mkdir X',
      async (real) => {
        await rm(real, { recursive: true });
        await mkdir(real);
      },
    ],
    [
      'mv X X.old && mkdir X',
      async (real) => {
        await rename(real, `${real}.old`);
        await mkdir(real);
      },
    ],
    [
      'mv live live.old && mv live.new live',
      async (real) => {
        await mkdir(`${real}.new`);
        await rename(real, `${real}.old`);
        await rename(`${real}.new`, real);
      },
    ],
  ];

  for (const [index, [how, replace]] of replacements.entries()) {
    it(`follows a folder replaced in one step (${how}): listing, search and live events`, async () => {
      const folder = `swap${index}`;
      for (let i = 0; i < 5; i++) await put(`${folder}/ghost${index}-${i}.txt`, 'old');
      await watched(server, folder);
      expect(names(await list(`/${folder}`))).toHaveLength(5);
      await until(async () => (await searchedPaths(server, `ghost${index}`)).length === 5);

      await replace(at(folder));
      await writeFile(at(`${folder}/fresh${index}.txt`), 'new');
      // At once: the cached folder's stamp names another inode.
      expect(names(await list(`/${folder}`))).toEqual([`fresh${index}.txt`]);

      // Search forgets the old folder's names and finds the new one once the watch reported.
      // (The old folder's files may live on elsewhere, as in X.old: not under X.)
      const under = (hits: string[]) => hits.filter((hit) => hit.startsWith(`${folder}/`));
      await until(async () => under(await searchedPaths(server, `ghost${index}`)).length === 0);
      await until(async () =>
        (await searchedPaths(server, `fresh${index}`)).includes(`${folder}/fresh${index}.txt`),
      );

      // The new folder is watched on its own inode: its changes still reach live folders.
      const stamp = (await folderStamp(at(folder)))!;
      await until(() => server.ctx.search.isWatched(at(folder), stamp));
      const stream = await openReady(server.url, { token: server.admin.token });
      try {
        await writeFile(at(`${folder}/later.txt`), 'later');
        const event = await stream.next(
          (e: StreamEvent) =>
            e.type === 'changed' && (e.data as { path: string }).path === `/${folder}/later.txt`,
        );
        expect(event.type).toBe('changed');
      } finally {
        stream.close();
      }
      expect(names(await list(`/${folder}`))).toEqual([`fresh${index}.txt`, 'later.txt']);
    });
  }

  it('shows an append through a hard link in another folder at once', async () => {
    await put('linked/data.log', 'one');
    await mkdir(at('elsewhere'));
    await link(at('linked/data.log'), at('elsewhere/data.log'));
    await watched(server, 'linked');
    const size = async () =>
      (await list('/linked')).items!.find((i) => i.name === 'data.log')!.size;
    expect(await size()).toBe(3);
    expect(await size()).toBe(3); // from the cache now
    await appendFile(at('elsewhere/data.log'), ' two');
    expect(await size()).toBe(7);
  });
});

describe('a replaced big folder with the listing cache off', () => {
  let server: TestServer;
  const list = listings(() => server);
  const at = (relative: string) => path.join(server.root, relative);

  beforeAll(async () => {
    server = await startTestServer({ config: { listingCache: 0 } });
  });
  afterAll(() => server.close());

  it('lists the new folder’s 3,000 names at once, not the index’s names of the old one', async () => {
    const fill = async (folder: string, prefix: string) => {
      await mkdir(at(folder));
      for (let i = 0; i < 3000; i++) await writeFile(at(`${folder}/${prefix}-${i}.txt`), '');
    };
    await fill('live', 'old');
    await watched(server, 'live');
    // The index vouches for the names: a streamed listing takes them from it.
    await eventually(
      async () => {
        await server.ctx.search.settled();
        return server.ctx.search.childrenOf(at('live'));
      },
      (children) => children?.count === 3000,
    );
    expect((await list('/live')).items).toHaveLength(3000);
    await fill('live.new', 'new');
    await rename(at('live'), at('live.old'));
    await rename(at('live.new'), at('live'));
    const listed = await list('/live');
    expect(listed.items).toHaveLength(3000);
    expect(listed.items!.every((item) => item.name.startsWith('new-'))).toBe(true);
    // Once the folder's change is old enough to trust its stamp, still the new names.
    await watched(server, 'live');
    const later = await list('/live');
    expect(later.items!.every((item) => item.name.startsWith('new-'))).toBe(true);
  });
});
