import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { UploadsRepo, type UploadSession } from './uploads.repo.ts';

describe('upload sessions table', () => {
  let database: TestDatabase;
  let repo: UploadsRepo;
  const session = (over: Partial<UploadSession> = {}): UploadSession => ({
    id: 'id-1',
    userId: 7,
    path: '/a/b.bin',
    target: '/root/a/b.bin',
    staging: '/root/a/.cabinet-tmp-tus-id-1',
    length: 5_000_000_000,
    override: true,
    metadata: 'filename Yi5iaW4=',
    completed: false,
    createdAt: 1000,
    expiresAt: 5000,
    ...over,
  });

  beforeAll(async () => {
    database = await openTestDatabase();
    repo = new UploadsRepo(database.db);
  });
  afterAll(() => database.close());

  it('stores and reads back a session, large lengths included', async () => {
    expect(await repo.insert(session())).toBe(true);
    expect(await repo.byId('id-1')).toEqual(session());
    expect(await repo.byTarget('/root/a/b.bin')).toEqual(session());
  });

  it('refuses a second session for the same target', async () => {
    expect(await repo.insert(session({ id: 'id-2', staging: '/root/a/x' }))).toBe(false);
    expect(await repo.byId('id-2')).toBeUndefined();
  });

  it('lists and claims only expired sessions', async () => {
    expect(await repo.listExpired(4999)).toEqual([]);
    expect((await repo.listExpired(5000)).map((s) => s.id)).toEqual(['id-1']);
    await repo.touch('id-1', 9000);
    expect(await repo.deleteIfExpired('id-1', 6000)).toBe(false);
    expect(await repo.deleteIfExpired('id-1', 9000)).toBe(true);
    expect(await repo.delete('id-1')).toBe(false);
  });

  it('marks a session completed', async () => {
    await repo.insert(session({ id: 'id-4', target: '/root/d' }));
    await repo.complete('id-4', 7000);
    expect(await repo.byId('id-4')).toMatchObject({ completed: true, expiresAt: 7000 });
  });

  it('survives reopening the database', async () => {
    await repo.insert(session({ id: 'id-3', target: '/root/c' }));
    repo = new UploadsRepo(await database.reopen());
    expect((await repo.byId('id-3'))?.target).toBe('/root/c');
  });
});
