// A delete cut by a crash between the move into the trash folder and its row (docs/trash.md): the
// pending marker written before the move lets the next start give the item its row, undo a delete
// whose move had not begun, and leave alone the deletes of a writer still running.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrashItem } from '@cabinet/protocol';
import type { TrashFolder } from '../src/fs/trash-folder.ts';
import type { TrashRecord } from '../src/store/trash.repo.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const servers: TestServer[] = [];
/** Root and data folders of a first server closed without removing them, for the second. */
const folders: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0).reverse()) await server.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A pid no process has any more: one of a child that ran and exited. */
function deadPid(): number {
  const result = spawnSync('true');
  if (!result.pid) throw new Error('could not run true');
  return result.pid;
}

async function writeMarker(
  server: TestServer,
  record: Omit<TrashRecord, 'size' | 'shares'>,
  pid: number,
): Promise<void> {
  await writeFile(
    path.join(server.dataDir, 'trash', String(record.userId), `${record.id}.pending`),
    JSON.stringify({ host: hostname(), pid, record }),
  );
}

describe('a delete interrupted between the move and its row', () => {
  it('gets its row at the next start: listed, whole and restorable', async () => {
    const first = await startTestServer();
    servers.push(first);
    const alice = await first.createUser({ scope: '/alice' });
    await mkdir(path.join(first.root, 'alice'), { recursive: true });
    await writeFile(path.join(first.root, 'alice/doc.txt'), 'the words');
    const removed = await first.fetch('/api/resources/doc.txt', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(removed.status).toBe(204);
    // A finished delete leaves no marker behind.
    const trashDir = path.join(first.dataDir, 'trash', String(alice.user.id));
    const [record] = await first.ctx.store.trash.list(alice.user.id);
    expect(await readdir(trashDir)).toEqual([record!.id]);
    // The state a crash after the move leaves: the item in the trash folder, its marker, no row.
    await first.ctx.store.trash.remove(record!.id);
    const { size: _size, shares: _shares, ...pending } = record!;
    await writeMarker(first, pending, deadPid());
    // A delete whose move had not begun: its empty folder and marker.
    await mkdir(path.join(trashDir, 'notmoved'));
    await writeMarker(first, { ...pending, id: 'notmoved' }, deadPid());
    await first.close({ removeFiles: false });
    servers.pop();
    folders.push(first.root, first.dataDir);

    const second = await startTestServer({ root: first.root, dataDir: first.dataDir });
    servers.push(second);
    const token = await second.tokenFor(alice.user);
    const listed = (await (await second.fetch('/api/trash', { token })).json()) as TrashItem[];
    expect(listed.map((item) => [item.id, item.path, item.size])).toEqual([
      [record!.id, '/doc.txt', 9],
    ]);
    const raw = await second.fetch(`/api/trash/${record!.id}/raw`, { token });
    expect(await raw.text()).toBe('the words');
    expect((await readdir(trashDir)).sort()).toEqual([record!.id]);
    const restored = await second.fetch(`/api/trash/${record!.id}/restore`, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(restored.status).toBe(200);
    const back = await second.fetch('/api/raw/doc.txt', { token });
    expect(await back.text()).toBe('the words');
  });

  it('writes its marker before it makes the item folder: no crash leaves a folder without one', async () => {
    const server = await startTestServer();
    servers.push(server);
    const alice = await server.createUser({ scope: '/alice' });
    await mkdir(path.join(server.root, 'alice'), { recursive: true });
    await writeFile(path.join(server.root, 'alice/first.txt'), 'first');
    const folder = (server.runtime.services.trash as unknown as { folder: TrashFolder }).folder;
    const prepare = folder.prepare.bind(folder);
    const trashDir = path.join(server.dataDir, 'trash', String(alice.user.id));
    // What lies in the user's trash folder at the moment the item's folder is made.
    const before: string[][] = [];
    folder.prepare = async (userId, id) => {
      before.push(await readdir(trashDir).catch(() => []));
      return prepare(userId, id);
    };
    const removed = await server.fetch('/api/resources/first.txt', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(removed.status).toBe(204);
    const [record] = await server.ctx.store.trash.list(alice.user.id);
    expect(before).toEqual([[`${record!.id}.pending`]]);
  });

  it('leaves alone the pending delete of a process still running, and a garbled marker costs no item', async () => {
    const first = await startTestServer();
    servers.push(first);
    const alice = await first.createUser({ scope: '/alice' });
    const trashDir = path.join(first.dataDir, 'trash', String(alice.user.id));
    await mkdir(path.join(trashDir, 'running'), { recursive: true });
    await writeFile(path.join(trashDir, 'running/busy.txt'), 'mid-move');
    const writer = spawn('sleep', ['600']);
    try {
      await writeMarker(
        first,
        {
          id: 'running',
          userId: alice.user.id,
          name: 'busy.txt',
          path: '/busy.txt',
          target: 'alice/busy.txt',
          isDir: false,
          deletedAt: Date.now(),
          deletedBy: alice.user.id,
        },
        writer.pid!,
      );
      await mkdir(path.join(trashDir, 'garbled'));
      await writeFile(path.join(trashDir, 'garbled/kept.txt'), 'kept');
      await writeFile(path.join(trashDir, 'garbled.pending'), '{"host":');
      await first.close({ removeFiles: false });
      servers.pop();
      folders.push(first.root, first.dataDir);

      const second = await startTestServer({ root: first.root, dataDir: first.dataDir });
      servers.push(second);
      expect(await second.ctx.store.trash.list(alice.user.id)).toEqual([]);
      expect((await readdir(trashDir)).sort()).toEqual(['garbled', 'running', 'running.pending']);
      expect(await readdir(path.join(trashDir, 'garbled'))).toEqual(['kept.txt']);
    } finally {
      writer.kill('SIGKILL');
      await rm(path.join(trashDir, 'running.pending'), { force: true });
    }
  });
});
