import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

interface Hit {
  dir: boolean;
  path: string;
}

async function put(file: string, content = 'x') {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Runs a search and parses its NDJSON lines (blank heartbeat lines ignored). */
async function search(server: TestServer, token: string, dir: string, query: string) {
  const response = await server.fetch(`/api/search${dir}?query=${encodeURIComponent(query)}`, {
    token,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await response.text();
  return text
    .split('\n')
    .filter((row) => row.trim() !== '')
    .map((row) => JSON.parse(row) as Hit);
}

const paths = (hits: Hit[]) => hits.map((hit) => hit.path);

describe('search grammar and order', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const at = (relative: string) => path.join(server.root, relative);
    for (const file of [
      'photos/cat.jpg',
      'photos/Cat.png',
      'docs/catalog.pdf',
      'docs/report.PDF',
      'docs/.pdf',
      'music/song.mp3',
      'video/clip.mp4',
      'a b.txt',
      'bobcat.txt',
      'deep/x/y/cat.txt',
      'deep/x/y/z/cat',
      'notes/pdf-guide.txt',
    ]) {
      await put(at(file));
    }
    await mkdir(at('cat'));
    // Order is breadth first as of the last full walk (entries added since come after): walk now.
    server.ctx.search.rebuild();
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  const admin = () => server.admin.token;

  it('matches base names case-insensitively and orders exact, then prefix, then the rest, shallower first', async () => {
    const hits = await search(server, admin(), '/', 'cat');
    expect(hits).toEqual([
      { dir: true, path: 'cat' },
      { dir: false, path: 'deep/x/y/z/cat' },
      { dir: false, path: 'docs/catalog.pdf' },
      { dir: false, path: 'photos/Cat.png' },
      { dir: false, path: 'photos/cat.jpg' },
      { dir: false, path: 'deep/x/y/cat.txt' },
      { dir: false, path: 'bobcat.txt' },
    ]);
  });

  it('honours case:sensitive', async () => {
    expect(paths(await search(server, admin(), '/', 'case:sensitive Cat'))).toEqual([
      'photos/Cat.png',
    ]);
    expect(paths(await search(server, admin(), '/', 'case:insensitive CAT.JPG'))).toEqual([
      'photos/cat.jpg',
    ]);
  });

  it('filters by media type and by exact extension, files only', async () => {
    expect(paths(await search(server, admin(), '/', 'type:image')).sort()).toEqual([
      'photos/Cat.png',
      'photos/cat.jpg',
    ]);
    expect(paths(await search(server, admin(), '/', 'type:music type:video')).sort()).toEqual([
      'music/song.mp3',
      'video/clip.mp4',
    ]);
    // `.pdf` exactly and case-sensitively: not `.PDF`, not a dotfile named `.pdf`, not `pdf-guide`.
    expect(paths(await search(server, admin(), '/', 'type:pdf'))).toEqual(['docs/catalog.pdf']);
    expect(paths(await search(server, admin(), '/', 'type:image cat')).sort()).toEqual([
      'photos/Cat.png',
      'photos/cat.jpg',
    ]);
  });

  it('treats a quoted query as one literal term and spaces as OR', async () => {
    expect(paths(await search(server, admin(), '/', '"a b"'))).toEqual(['a b.txt']);
    const either = paths(await search(server, admin(), '/', 'song  clip'));
    expect(either.sort()).toEqual(['music/song.mp3', 'video/clip.mp4']);
  });

  it('answers paths relative to the searched folder and only below it', async () => {
    expect(await search(server, admin(), '/photos/', 'cat')).toEqual([
      { dir: false, path: 'Cat.png' },
      { dir: false, path: 'cat.jpg' },
    ]);
    expect(paths(await search(server, admin(), '/deep', 'cat'))).toEqual([
      'x/y/z/cat',
      'x/y/cat.txt',
    ]);
  });

  it('lists everything for an empty query, and nothing for a term holding a slash', async () => {
    expect((await search(server, admin(), '/docs', '')).length).toBe(3);
    expect(await search(server, admin(), '/', 'photos/cat')).toEqual([]);
  });

  it('refuses bad folders with the usual statuses', async () => {
    expect((await server.fetch('/api/search/?query=cat')).status).toBe(401);
    expect((await server.fetch('/api/search/nope/?query=x', { token: admin() })).status).toBe(404);
    const file = await server.fetch('/api/search/bobcat.txt?query=x', { token: admin() });
    expect(file.status).toBe(400);
    expect(await file.text()).toContain('path is not a directory');
  });
});

describe('search per user', () => {
  let server: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    const home = (relative: string) => path.join(server.root, 'users/alice', relative);
    await put(path.join(server.root, 'users/bob/report.txt'));
    await put(path.join(path.dirname(server.root), 'outside/report-outside.txt'));
    await put(home('report.txt'));
    await put(home('private/report-private.txt'));
    await put(home('work/report.key'));
    await put(home('.hidden/report-in-dotfolder.txt'));
    await put(home('.report-dotfile.txt'));
    await put(home('open/deeper/report-deep.txt'));
    await symlink(path.join(path.dirname(server.root), 'outside'), home('report-link-out'));
    await symlink('report.txt', home('report-link-in'));
    await server.updateSettings({
      rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } }],
    });
    alice = await server.createUser({
      scope: '/users/alice',
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
    });
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  it('never shows a path outside the scope, behind a rule or hidden as a dotfile', async () => {
    const hits = await search(server, alice.token, '/', 'report');
    expect(paths(hits).sort()).toEqual([
      'open/deeper/report-deep.txt',
      'report-link-in',
      'report.txt',
    ]);
    expect(hits.find((hit) => hit.path === 'report-link-in')?.dir).toBe(false);
  });

  it('shows dotfiles to a user who does not hide them, still within scope and rules', async () => {
    const carol = await server.createUser({ scope: '/users/alice', hideDotfiles: false });
    const hits = paths(await search(server, carol.token, '/', 'report')).sort();
    expect(hits).toEqual([
      '.hidden/report-in-dotfolder.txt',
      '.report-dotfile.txt',
      'open/deeper/report-deep.txt',
      'private/report-private.txt',
      'report-link-in',
      'report.txt',
    ]);
  });

  it('refuses to search a folder behind a rule', async () => {
    const response = await server.fetch('/api/search/private/?query=report', {
      token: alice.token,
    });
    expect(response.status).toBe(403);
  });
});

describe('search stays fresh', () => {
  let server: TestServer;
  const at = (relative: string) => path.join(server.root, relative);
  const found = async (query: string) =>
    paths(await search(server, server.admin.token, '/', query));
  beforeAll(async () => {
    server = await startTestServer();
    await put(at('inbox/start.txt'));
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  it('finds a file created outside Cabinet, follows its rename and forgets it when deleted', async () => {
    await put(at('inbox/zebra-created.txt'));
    await expect
      .poll(() => found('zebra'), { timeout: 10_000 })
      .toEqual(['inbox/zebra-created.txt']);
    await mkdir(at('archive'));
    await rename(at('inbox/zebra-created.txt'), at('archive/zebra-moved.txt'));
    await expect
      .poll(() => found('zebra'), { timeout: 10_000 })
      .toEqual(['archive/zebra-moved.txt']);
    await rm(at('archive/zebra-moved.txt'));
    await expect.poll(() => found('zebra'), { timeout: 10_000 }).toEqual([]);
  });

  it('indexes a whole folder moved in from outside the root, and forgets it when removed', async () => {
    const outside = path.join(path.dirname(server.root), 'incoming');
    await put(path.join(outside, 'sub/yak-one.txt'));
    await put(path.join(outside, 'yak-two.txt'));
    await rename(outside, at('inbox/incoming'));
    await expect
      .poll(async () => (await found('yak')).sort(), { timeout: 10_000 })
      .toEqual(['inbox/incoming/sub/yak-one.txt', 'inbox/incoming/yak-two.txt']);
    await rm(at('inbox/incoming'), { recursive: true });
    await expect.poll(() => found('yak'), { timeout: 10_000 }).toEqual([]);
  });

  it('sees changes made through Cabinet at once', async () => {
    const response = await server.fetch('/api/resources/inbox/quail.txt', {
      method: 'POST',
      token: server.admin.token,
      body: 'q',
    });
    expect(response.status).toBe(200);
    await expect.poll(() => found('quail'), { timeout: 10_000 }).toEqual(['inbox/quail.txt']);
  });
});

describe('search while the index builds and across restarts', () => {
  it('answers correctly by walking while the first build has not finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await startTestServer({ searchGate: gate });
    try {
      await put(path.join(server.root, 'a/walked-one.txt'));
      await put(path.join(server.root, 'b/c/walked-two.txt'));
      await put(path.join(server.root, 'b/.walked-hidden'));
      const user = await server.createUser({ scope: '/', hideDotfiles: true });
      expect(server.ctx.search.current).toBeNull();
      expect(paths(await search(server, user.token, '/', 'walked')).sort()).toEqual([
        'a/walked-one.txt',
        'b/c/walked-two.txt',
      ]);
      expect(paths(await search(server, user.token, '/b', 'type:txt'))).toEqual([
        'c/walked-two.txt',
      ]);
      release();
      await server.ctx.search.settled();
      expect(server.ctx.search.current).not.toBeNull();
      expect(paths(await search(server, user.token, '/', 'walked')).sort()).toEqual([
        'a/walked-one.txt',
        'b/c/walked-two.txt',
      ]);
    } finally {
      release();
      await server.close();
    }
  });

  it('answers from the persisted index after a restart, then catches up with changes made meanwhile', async () => {
    const first = await startTestServer();
    const { root, dataDir } = first;
    await put(path.join(root, 'kept/olive-old.txt'));
    await first.ctx.search.settled();
    await first.close({ removeFiles: false });

    // While the server is down: one file goes, one comes.
    await rm(path.join(root, 'kept/olive-old.txt'));
    await put(path.join(root, 'kept/olive-new.txt'));

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const second = await startTestServer({ root, dataDir, searchGate: gate });
    try {
      // Reconciliation is held: the answer comes from the index as saved, not from a walk.
      expect(second.ctx.search.current).not.toBeNull();
      const before = await search(second, second.admin.token, '/', 'olive');
      expect(paths(before)).toEqual(['kept/olive-old.txt']);
      release();
      await expect
        .poll(async () => paths(await search(second, second.admin.token, '/', 'olive')), {
          timeout: 10_000,
        })
        .toEqual(['kept/olive-new.txt']);
    } finally {
      release();
      await second.close();
      await rm(path.dirname(root), { recursive: true, force: true });
    }
  });
});

describe('search from the trigram index', () => {
  it('answers selective queries from the persisted trigram index, per user, and finds names added since', async () => {
    const first = await startTestServer();
    const { root, dataDir } = first;
    for (let i = 0; i < 300; i++) await put(path.join(root, `bulk/file-${i}.txt`));
    await put(path.join(root, 'shared/Quarterly-Invoice-4711.pdf'));
    await put(path.join(root, 'secret/quarterly-invoice-4711.pdf'));
    // A full walk builds the trigram index of everything (the files above were added after the
    // first build: its tail).
    first.ctx.search.rebuild();
    await first.ctx.search.settled();
    const grams = first.ctx.search.current!.grams;
    expect(grams?.covered).toBe(first.ctx.search.current!.size);
    // The term's trigrams are selective: the index narrows it to a few groups of names.
    expect(grams!.candidates(Buffer.from('invoice-4711'))!.length).toBeLessThanOrEqual(2);
    await first.close({ removeFiles: false });

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const second = await startTestServer({ root, dataDir, searchGate: gate });
    try {
      // Reconciliation is held: the loaded table brought its trigram index along.
      expect(second.ctx.search.current?.grams?.covered).toBe(second.ctx.search.current!.size);
      const user = await second.createUser({
        scope: '/',
        rules: [{ regex: false, allow: false, path: '/secret', regexp: null }],
      });
      const admin = second.admin.token;
      expect(paths(await search(second, admin, '/', 'invoice-4711')).sort()).toEqual([
        'secret/quarterly-invoice-4711.pdf',
        'shared/Quarterly-Invoice-4711.pdf',
      ]);
      expect(paths(await search(second, user.token, '/', 'invoice-4711'))).toEqual([
        'shared/Quarterly-Invoice-4711.pdf',
      ]);
      expect(paths(await search(second, admin, '/', 'case:sensitive Invoice-4711'))).toEqual([
        'shared/Quarterly-Invoice-4711.pdf',
      ]);
      // Added through Cabinet after the index was built: past what it covers, found by the scan
      // of the names added since.
      const response = await second.fetch('/api/resources/shared/invoice-4711-copy.pdf', {
        method: 'POST',
        token: admin,
        body: 'x',
      });
      expect(response.status).toBe(200);
      await expect
        .poll(async () => paths(await search(second, user.token, '/', 'invoice-4711')), {
          timeout: 10_000,
        })
        // The new name starts with the term: prefix matches come before the others.
        .toEqual(['shared/invoice-4711-copy.pdf', 'shared/Quarterly-Invoice-4711.pdf']);
      expect(second.ctx.search.current!.grams!.covered).toBeLessThan(
        second.ctx.search.current!.size,
      );
    } finally {
      release();
      await second.close();
      await rm(path.dirname(root), { recursive: true, force: true });
    }
  });
});
