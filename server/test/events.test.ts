// The event stream (docs/jobs.md): bus events reach every stream of their user and no other,
// a reconnect replays what was missed, and changes on disk reach the users allowed to see them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { openEvents, openReady, type StreamEvent } from './helpers/event-stream.ts';

const isType = (type: string) => (event: StreamEvent) => event.type === type;
const changedPath = (p: string) => (event: StreamEvent) =>
  event.type === 'changed' && (event.data as { path: string }).path === p;

describe('event stream', () => {
  let server: TestServer;
  let ann: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    await mkdir(path.join(server.root, 'users/ann/secret'), { recursive: true });
    await mkdir(path.join(server.root, 'users/bob'), { recursive: true });
    ann = await server.createUser({
      scope: '/users/ann',
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/secret', regexp: null }],
    });
    bob = await server.createUser({ scope: '/users/bob' });
    // Folder watches are added while the index walks the tree.
    server.ctx.search.rebuild();
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  it('refuses a request without a session, and takes the token from ?auth=', async () => {
    const anonymous = await openEvents(server.url);
    expect(anonymous.status).toBe(401);
    const bad = await openEvents(server.url, { query: '?auth=not-a-token' });
    expect(bad.status).toBe(401);
    const viaQuery = await openReady(server.url, { query: `?auth=${ann.token}` });
    expect(viaQuery.first.type).toBe('ready');
    viaQuery.close();
  });

  it('hands an event to both streams of its user and never to another user', async () => {
    const first = await openReady(server.url, { token: ann.token });
    const second = await openReady(server.url, { token: await server.tokenFor(ann.user) });
    const other = await openReady(server.url, { token: bob.token });
    const { events } = server.runtime.coordination;
    await events.publish(ann.user.id, 'job', { n: 1 });
    await events.publish(bob.user.id, 'job', { n: 2 });
    const a1 = await first.next(isType('job'));
    const a2 = await second.next(isType('job'));
    expect(a1.data).toEqual({ n: 1 });
    expect(a2.data).toEqual({ n: 1 });
    expect(a1.id).toBe(a2.id);
    // Bob's own event came after Ann's: had Ann's reached him, it would be first.
    const b = await other.next(isType('job'));
    expect(b.data).toEqual({ n: 2 });
    expect(other.events.filter(isType('job'))).toHaveLength(1);
    for (const client of [first, second, other]) client.close();
  });

  it('replays what a reconnecting stream missed, in order, and asks to resync when unknown', async () => {
    const before = await openReady(server.url, { token: ann.token });
    const lastSeen = before.first.id!;
    before.close();
    const { events } = server.runtime.coordination;
    await events.publish(ann.user.id, 'job', { step: 'a' });
    await events.publish(bob.user.id, 'job', { step: 'not for ann' });
    await events.publish(ann.user.id, 'job', { step: 'b' });

    const again = await openReady(server.url, { token: ann.token, lastEventId: lastSeen });
    await again.next((e) => e.type === 'job' && (e.data as { step: string }).step === 'b');
    expect(again.events.map((e) => e.data)).toEqual([{ step: 'a' }, { step: 'b' }]);
    const ids = again.events.map((e) => Number(e.id));
    expect(ids[0]).toBeGreaterThan(Number(lastSeen));
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    // Live events keep coming after the replay.
    await events.publish(ann.user.id, 'job', { step: 'c' });
    await again.next((e) => e.type === 'job' && (e.data as { step: string }).step === 'c');
    again.close();

    for (const unknown of ['not-a-number', String(Number(lastSeen) + 1_000_000)]) {
      const lost = await openReady(server.url, { token: ann.token, lastEventId: unknown });
      expect(lost.first.type).toBe('resync');
      lost.close();
    }
    // The query parameter stands in for the header.
    const viaQuery = await openReady(server.url, {
      token: ann.token,
      query: `?lastEventId=${lastSeen}`,
    });
    expect(viaQuery.first.data).toEqual({ step: 'a' });
    viaQuery.close();
  });

  it('tells a user of a file created on disk in their scope, as a scope path', async () => {
    const stream = await openReady(server.url, { token: ann.token });
    await writeFile(path.join(server.root, 'users/ann/made-elsewhere.txt'), 'x');
    await stream.next(changedPath('/made-elsewhere.txt'));
    stream.close();
  });

  it('tells a stream opened just after a change of it, as a page that read its folder first needs', async () => {
    const real = path.join(server.root, 'users/ann/before-the-stream.txt');
    const secret = path.join(server.root, 'users/ann/secret/before-the-stream.txt');
    const heard = new Promise<void>((resolve) => {
      const stop = server.ctx.search.onPathChanged((changed) => {
        if (changed !== real) return;
        stop();
        resolve();
      });
    });
    await writeFile(secret, 'x');
    await writeFile(real, 'x');
    // The watch reported the change while no stream was open.
    await heard;
    const stream = await openReady(server.url, { token: ann.token });
    await stream.next(changedPath('/before-the-stream.txt'));
    const bobStream = await openReady(server.url, { token: bob.token });
    // Ann's stream got her change right after `ready`; Bob's (opened later) got nothing of hers.
    await writeFile(path.join(server.root, 'users/bob/after.txt'), 'x');
    await bobStream.next(changedPath('/after.txt'));
    const told = (events: StreamEvent[]) =>
      events.filter(isType('changed')).map((e) => (e.data as { path: string }).path);
    expect(told(stream.events)).not.toContain('/secret/before-the-stream.txt');
    expect(told(bobStream.events).some((p) => p.includes('before-the-stream'))).toBe(false);
    stream.close();
    bobStream.close();
  });

  it('never tells of paths outside the scope, blocked by rules or hidden dotfiles', async () => {
    const annStream = await openReady(server.url, { token: ann.token });
    const bobStream = await openReady(server.url, { token: bob.token });
    await writeFile(path.join(server.root, 'users/ann/secret/plan.txt'), 'x');
    await writeFile(path.join(server.root, 'users/ann/.hidden'), 'x');
    await writeFile(path.join(server.root, 'users/bob/bobs.txt'), 'x');
    await writeFile(path.join(server.root, 'top-level.txt'), 'x');
    // Written last: once it arrived, whatever came of the writes above came with or before it.
    await writeFile(path.join(server.root, 'users/ann/visible.txt'), 'x');
    await annStream.next(changedPath('/visible.txt'));
    await bobStream.next(changedPath('/bobs.txt'));
    const annPaths = annStream.events
      .filter(isType('changed'))
      .map((e) => (e.data as { path: string }).path);
    expect(annPaths).not.toContain('/secret/plan.txt');
    expect(annPaths).not.toContain('/secret');
    expect(annPaths).not.toContain('/.hidden');
    expect(annPaths.some((p) => p.includes('bobs') || p.includes('top-level'))).toBe(false);
    annStream.close();
    bobStream.close();
  });

  it('ends the stream of a revoked session at the next change', async () => {
    const token = await server.tokenFor(ann.user);
    const stream = await openReady(server.url, { token });
    await server.ctx.store.sessions.revokeAllForUser(ann.user.id);
    await writeFile(path.join(server.root, 'users/ann/after-revoke.txt'), 'x');
    await stream.ended;
    expect(stream.events.some(changedPath('/after-revoke.txt'))).toBe(false);
    ann = { ...ann, token: await server.tokenFor(ann.user) };
  });

  it('ends every stream when the server begins to shut down', async () => {
    const stream = await openReady(server.url, { token: ann.token });
    expect(server.runtime.services.events.size).toBeGreaterThan(0);
    await server.runtime.abortRequests();
    await stream.ended;
    expect(server.runtime.services.events.size).toBe(0);
  });
});

describe('event stream across instances', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const config = { sharedState: 'database' as const };
    a = await startTestServer({ config });
    b = await startTestServer({ root: a.root, dataDir: a.dataDir, config });
  });
  afterAll(async () => {
    await b?.close({ removeFiles: false });
    await a?.close();
  });

  it('delivers an event published on one instance to a stream on the other, and replays it there', async () => {
    const admin = a.admin.user;
    const onB = await openReady(b.url, { token: a.admin.token });
    const id = await a.runtime.coordination.events.publish(admin.id, 'job', { from: 'a' });
    const got = await onB.next(isType('job'));
    expect(got).toEqual({ id: String(id), type: 'job', data: { from: 'a' } });
    onB.close();
    const replay = await openReady(a.url, { token: a.admin.token, lastEventId: onB.first.id });
    expect(replay.first).toEqual(got);
    replay.close();
  });
});
