import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { SharesRepo, type ShareRecord } from './shares.repo.ts';
import { UsersRepo, type UserRecord } from './users.repo.ts';

describe('shares table', () => {
  let database: TestDatabase;
  let repo: SharesRepo;
  let userId: number;
  const share = (hash: string, target: string, over: Partial<ShareRecord> = {}): ShareRecord => ({
    hash,
    path: target,
    userId,
    expire: 0,
    passwordHash: '',
    target,
    downloadLimit: 0,
    downloads: 0,
    isDir: false,
    isRequest: false,
    ...over,
  });
  beforeAll(async () => {
    database = await openTestDatabase();
    repo = new SharesRepo(database.db);
    userId = await new UsersRepo(database.db).insert({
      username: 'ann',
      passwordHash: 'hash',
    } as unknown as Omit<UserRecord, 'id' | 'updatedAt'>);
    for (const [hash, target] of [
      ['docs', '/docs'],
      ['inside', '/docs/a.txt'],
      ['sibling', '/docs-old'],
      ['accent', '/é/ü'],
    ] as const) {
      await repo.insert(share(hash, target, { isDir: hash === 'docs' }));
    }
  });
  afterAll(() => database.close());

  it('finds links at or under a folder, never beside it', async () => {
    const hashes = async (target: string) =>
      (await repo.atOrUnderTarget(target)).map((s) => s.hash).sort();
    expect(await hashes('/docs')).toEqual(['docs', 'inside']);
    expect(await hashes('/é')).toEqual(['accent']);
    expect(await hashes('/')).toEqual(['accent', 'docs', 'inside', 'sibling']);
  });

  it('reads flags and counters back as booleans and numbers', async () => {
    expect(await repo.get('docs')).toEqual(share('docs', '/docs', { isDir: true }));
  });

  it('counts downloads up to the limit', async () => {
    await repo.insert(share('limited', '/l', { downloadLimit: 2 }));
    expect(await repo.takeDownload('limited')).toBe(true);
    expect(await repo.takeDownload('limited')).toBe(true);
    expect(await repo.takeDownload('limited')).toBe(false);
    expect((await repo.get('limited'))?.downloads).toBe(2);
  });

  it('finds and removes nothing by keys PostgreSQL cannot hold, on either engine', async () => {
    expect(await repo.get('docs\0')).toBeUndefined();
    expect(await repo.byUser(2 ** 31)).toEqual([]);
    expect(await repo.atOrUnderTarget('/docs\0')).toEqual([]);
    expect(await repo.remove(['docs\0'])).toBe(0);
    expect(await repo.remove(['docs\0', 'sibling'])).toBe(1);
  });
});
