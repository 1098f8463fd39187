import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './helpers/log-capture.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * The requests of the filebrowser v2.63 web client (frontend/src/api/*.ts, frontend/src/utils/*.ts),
 * sent exactly as it sends them: `X-Auth` and nothing else on API calls, JSON bodies without a
 * Content-Type (a browser then labels a string body `text/plain;charset=UTF-8`), the token as
 * `auth=` in download and preview URLs, and its query spellings.
 */
const BROWSER_TEXT = 'text/plain;charset=UTF-8';

/** fetchURL of the reference client: X-Auth, and a string body the browser labels text/plain. */
function clientCall(
  server: TestServer,
  token: string,
  url: string,
  method = 'GET',
  body?: unknown,
) {
  return server.fetch(url, {
    method,
    headers: {
      'X-Auth': token,
      ...(body !== undefined && { 'content-type': BROWSER_TEXT }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

let server: TestServer;
const { log, lines: logged } = captureLog();

beforeAll(async () => {
  server = await startTestServer({ log });
  await mkdir(path.join(server.root, 'docs'), { recursive: true });
  await writeFile(path.join(server.root, 'docs/readme.txt'), 'hello');
  await writeFile(
    path.join(server.root, 'docs/photo.png'),
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer(),
  );
});
afterAll(() => server.close());

describe('a session of the filebrowser v2.63 web client', () => {
  it('logs in, browses, uploads, renames, copies, moves, deletes and previews', async () => {
    const login = await server.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, recaptcha: '' }),
    });
    expect(login.status).toBe(200);
    const token = await login.text();

    const listing = await clientCall(server, token, '/api/resources/docs/');
    expect(listing.status).toBe(200);
    const names = ((await listing.json()) as { items: { name: string }[] }).items.map(
      (i) => i.name,
    );
    expect(names.sort()).toEqual(['photo.png', 'readme.txt']);

    // postResources: XHR POST with ?override=, X-Auth and the file as the body.
    const upload = await server.fetch('/api/resources/docs/new.txt?override=false', {
      method: 'POST',
      headers: { 'X-Auth': token },
      body: 'uploaded',
    });
    expect(upload.status).toBe(200);
    expect(await readFile(path.join(server.root, 'docs/new.txt'), 'utf8')).toBe('uploaded');

    // tus.ts: createUpload POSTs `${tusEndpoint}${path}?override=…` with Upload-Length, then
    // tus-js-client sends PATCHes to the same URL.
    const tusUrl = '/api/tus/docs/big.bin?override=false';
    const created = await server.fetch(tusUrl, {
      method: 'POST',
      headers: { 'X-Auth': token, 'Upload-Length': '6' },
    });
    expect(created.status).toBe(201);
    const patched = await server.fetch(tusUrl, {
      method: 'PATCH',
      headers: {
        'X-Auth': token,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: 'abcdef',
    });
    expect(patched.status).toBe(204);
    expect(await readFile(path.join(server.root, 'docs/big.bin'), 'utf8')).toBe('abcdef');

    // moveCopy: PATCH {from}?action=…&destination=<encodeURIComponent>&override=…&rename=…
    const patch = (from: string, action: string, to: string, override = false, rename = false) =>
      clientCall(
        server,
        token,
        `/api/resources${from}?action=${action}&destination=${encodeURIComponent(to)}` +
          `&override=${override}&rename=${rename}`,
        'PATCH',
      );
    expect((await patch('/docs/new.txt', 'rename', '/docs/renamed.txt')).status).toBe(200);
    expect((await patch('/docs/renamed.txt', 'copy', '/docs/readme.txt')).status).toBe(409);
    expect((await patch('/docs/renamed.txt', 'copy', '/docs/readme.txt', false, true)).status).toBe(
      200,
    );
    expect(await readFile(path.join(server.root, 'docs/readme(1).txt'), 'utf8')).toBe('uploaded');
    expect(await readFile(path.join(server.root, 'docs/readme.txt'), 'utf8')).toBe('hello');
    expect((await patch('/docs/renamed.txt', 'rename', '/docs/readme.txt', true)).status).toBe(200);
    expect(await readFile(path.join(server.root, 'docs/readme.txt'), 'utf8')).toBe('uploaded');
    await mkdir(path.join(server.root, 'moved'));
    expect((await patch('/docs/big.bin', 'rename', '/moved/big.bin')).status).toBe(200);
    expect(await readdir(path.join(server.root, 'moved'))).toEqual(['big.bin']);

    const removed = await clientCall(server, token, '/api/resources/moved/big.bin', 'DELETE');
    expect(removed.status).toBe(204);

    // getPreviewURL / getDownloadURL: the token rides in the query, no header, no cookie.
    const preview = await server.fetch(
      `/api/preview/thumb/docs/photo.png?auth=${token}&inline=true&key=1700000000000`,
    );
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toMatch(/^image\//);
    const download = await server.fetch(`/api/raw/docs/readme.txt?auth=${token}&`);
    expect(await download.text()).toBe('uploaded');
    const files = encodeURIComponent('/docs/readme.txt,/docs/photo.png');
    const archive = await server.fetch(`/api/raw/?files=${files}&algo=zip&auth=${token}&`);
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/zip');
  });

  it('changes the language of a user with a which list and a text/plain body', async () => {
    const me = await server.createUser();
    const current = (await (
      await clientCall(server, me.token, `/api/users/${me.user.id}`)
    ).json()) as {
      locale: string;
    };
    const res = await clientCall(server, me.token, `/api/users/${me.user.id}`, 'PUT', {
      what: 'user',
      which: ['locale'],
      data: { ...current, id: me.user.id, locale: 'de' },
    });
    expect(res.status).toBe(200);
    expect((await server.ctx.store.users.byId(me.user.id))?.locale).toBe('de');
  });

  it('changes a password with current_password, as the profile screen sends it', async () => {
    const me = await server.createUser();
    const next = 'a-new-and-rather-long-passphrase';
    const res = await clientCall(server, me.token, `/api/users/${me.user.id}`, 'PUT', {
      what: 'user',
      which: ['password'],
      data: { id: me.user.id, password: next },
      current_password: me.password,
    });
    expect(res.status).toBe(200);
    const login = await server.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: me.user.username, password: next, recaptcha: '' }),
    });
    expect(login.status).toBe(200);
  });

  it('creates a restricted user who is held to its permissions', async () => {
    const res = await clientCall(server, server.admin.token, '/api/users', 'POST', {
      what: 'user',
      which: [],
      current_password: ADMIN_PASSWORD,
      data: {
        username: 'viewer',
        password: 'viewer-passphrase-long-enough',
        scope: '/docs',
        locale: 'en',
        lockPassword: false,
        viewMode: 'list',
        singleClick: false,
        hideDotfiles: false,
        dateFormat: false,
        commands: [],
        rules: [],
        perm: {
          admin: false,
          execute: false,
          create: false,
          rename: false,
          modify: false,
          delete: false,
          share: false,
          download: true,
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/^\/settings\/users\/\d+$/);
    const login = await server.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'viewer', password: 'viewer-passphrase-long-enough' }),
    });
    const token = await login.text();
    expect((await clientCall(server, token, '/api/resources/readme.txt')).status).toBe(200);
    expect((await clientCall(server, token, '/api/resources/readme.txt', 'DELETE')).status).toBe(
      403,
    );
  });

  it('reads and saves the global settings with a text/plain body', async () => {
    const settings = (await (
      await clientCall(server, server.admin.token, '/api/settings')
    ).json()) as {
      signup: boolean;
    };
    const res = await clientCall(server, server.admin.token, '/api/settings', 'PUT', {
      ...settings,
      signup: !settings.signup,
    });
    expect(res.status).toBe(200);
    expect((await server.ctx.settings.get()).signup).toBe(!settings.signup);
    await server.updateSettings({ signup: settings.signup });
  });
});

describe('JSON bodies', () => {
  it('are read whatever the Content-Type says, or without one', async () => {
    for (const type of [BROWSER_TEXT, 'application/x-www-form-urlencoded', undefined]) {
      const me = await server.createUser();
      const res = await server.fetch(`/api/users/${me.user.id}`, {
        method: 'PUT',
        headers: { 'X-Auth': me.token, ...(type && { 'content-type': type }) },
        body: new TextEncoder().encode(
          JSON.stringify({
            what: 'user',
            which: ['locale'],
            data: { id: me.user.id, locale: 'fr' },
          }),
        ),
      });
      expect(res.status, String(type)).toBe(200);
    }
  });

  it('answer a body that is not JSON with a clear 400', async () => {
    const res = await server.fetch('/api/settings', {
      method: 'PUT',
      headers: { 'X-Auth': server.admin.token, 'content-type': BROWSER_TEXT },
      body: 'signup=true',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('400 Bad Request (the request body is not valid JSON)\n');
  });

  it('keep their size limit', async () => {
    const res = await server.fetch('/api/settings', {
      method: 'PUT',
      headers: { 'X-Auth': server.admin.token, 'content-type': BROWSER_TEXT },
      body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(res.status).toBe(413);
  });
});

describe('the auth query parameter', () => {
  it('unlocks downloads, previews and subtitles only', async () => {
    const token = server.admin.token;
    expect((await server.fetch(`/api/raw/docs/photo.png?auth=${token}`)).status).toBe(200);
    expect((await server.fetch(`/api/preview/big/docs/photo.png?auth=${token}`)).status).toBe(200);
    await writeFile(
      path.join(server.root, 'docs/subs.srt'),
      '1\n00:00:01,000 --> 00:00:02,000\nHi\n',
    );
    expect((await server.fetch(`/api/subtitle/docs/subs.srt?auth=${token}`)).status).toBe(200);
    for (const route of [
      '/api/users',
      '/api/users/1',
      '/api/settings',
      '/api/resources/',
      '/api/resources/recursive/',
      '/api/usage/',
      '/api/renew',
    ]) {
      const res = await server.fetch(`${route}?auth=${token}`);
      expect(res.status, route).toBe(401);
    }
  });

  it('is never written to the log', async () => {
    const token = await server.tokenFor(server.admin.user);
    await server.fetch(`/api/raw/docs/photo.png?auth=${token}`);
    await server.fetch(`/api/users?auth=${token}`);
    const signature = token.split('.')[2] as string;
    expect(logged.join('')).toContain('[redacted]');
    expect(logged.join('')).not.toContain(signature);
  });
});

describe('methods and malformed URLs', () => {
  it('answers a wrong method on a known route with 405 and what is allowed', async () => {
    for (const [method, route] of [
      ['POST', '/api/settings'],
      ['DELETE', '/api/settings'],
      ['PUT', '/api/raw/docs/readme.txt'],
      ['POST', '/api/usage/'],
      ['PATCH', '/api/users'],
    ] as const) {
      const res = await rawRequest(server.url, method, route, { token: server.admin.token });
      expect(res.status, `${method} ${route}`).toBe(405);
      expect(res.body).toBe('');
      expect(res.headers.allow).toMatch(/GET/);
    }
  });

  it('answers a wrong method with 405 before reading the body', async () => {
    for (const [route, type, body] of [
      ['/api/public/dl/abc123/x', 'application/json', '{not json'],
      ['/api/settings', 'text/plain', 'x'.repeat(64 * 1024)],
    ] as const) {
      const res = await rawRequest(server.url, 'POST', route, {
        token: server.admin.token,
        body,
        headers: { 'content-type': type },
      });
      expect(res.status, route).toBe(405);
      expect(res.headers.allow).toMatch(/GET/);
    }
  });

  it('keeps unknown API paths at 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await rawRequest(server.url, method, '/api/nothing-here', {
        token: server.admin.token,
      });
      expect(res.status).toBe(404);
    }
  });

  it('answers bad percent-encoding with the plain-text 400, never echoing the URL', async () => {
    for (const route of ['/api/resources/%E0%A4%A', '/api/raw/bad%zzname', '/files/%']) {
      const res = await rawRequest(server.url, 'GET', route, { token: server.admin.token });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('400 Bad Request (malformed URL)\n');
    }
  });
});

describe('backslashes are ordinary characters of names', () => {
  beforeAll(async () => {
    await mkdir(path.join(server.root, 'bs'), { recursive: true });
    await writeFile(path.join(server.root, 'bs/a\\b.txt'), 'a-b');
    await writeFile(path.join(server.root, 'bs/b\\"x.txt'), 'b-x');
    await writeFile(path.join(server.root, 'bs/b.txt'), 'plain b');
  });
  const token = () => server.admin.token;
  const enc = (name: string) => `/bs/${encodeURIComponent(name)}`;

  it('lists, opens and downloads such files as themselves', async () => {
    const listing = await clientCall(server, token(), '/api/resources/bs/');
    const items = ((await listing.json()) as { items: { name: string; path: string }[] }).items;
    expect(items.map((i) => i.name).sort()).toEqual(['a\\b.txt', 'b.txt', 'b\\"x.txt']);
    const info = await clientCall(server, token(), `/api/resources${enc('a\\b.txt')}`);
    expect(((await info.json()) as { content: string }).content).toBe('a-b');
    expect(await (await server.fetch(`/api/raw${enc('b\\"x.txt')}?auth=${token()}`)).text()).toBe(
      'b-x',
    );
  });

  it('renames and deletes such files without touching their look-alikes', async () => {
    const to = encodeURIComponent('/bs/c\\d.txt');
    const renamed = await clientCall(
      server,
      token(),
      `/api/resources${enc('a\\b.txt')}?action=rename&destination=${to}&override=false&rename=false`,
      'PATCH',
    );
    expect(renamed.status).toBe(200);
    const deleted = await clientCall(
      server,
      token(),
      `/api/resources${enc('b\\"x.txt')}`,
      'DELETE',
    );
    expect(deleted.status).toBe(204);
    expect((await readdir(path.join(server.root, 'bs'))).sort()).toEqual(['b.txt', 'c\\d.txt']);
    expect(await readFile(path.join(server.root, 'bs/b.txt'), 'utf8')).toBe('plain b');
  });

  it('treats ..\\..\\x as one name inside the folder, never a step up', async () => {
    const me = await server.createUser({ scope: '/bs' });
    const res = await server.fetch(
      `/api/resources/${encodeURIComponent('..\\..\\x.txt')}?override=false`,
      {
        method: 'POST',
        headers: { 'X-Auth': me.token },
        body: 'inside',
      },
    );
    expect(res.status).toBe(200);
    expect(await readFile(path.join(server.root, 'bs/..\\..\\x.txt'), 'utf8')).toBe('inside');
    expect(await readdir(server.root)).not.toContain('x.txt');
  });
});
