import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { SessionsRepo } from './sessions.repo.ts';
import { UsersRepo, type UserRecord } from './users.repo.ts';

describe('sessions table', () => {
  let database: TestDatabase;
  let repo: SessionsRepo;
  let userId: number;
  beforeAll(async () => {
    database = await openTestDatabase();
    repo = new SessionsRepo(database.db);
    userId = await new UsersRepo(database.db).insert({
      username: 'ann',
      passwordHash: 'hash',
    } as unknown as Omit<UserRecord, 'id' | 'updatedAt'>);
  });
  afterAll(() => database.close());

  it('reads a session back with its times as numbers', async () => {
    await repo.create({ id: 's1', userId, createdAt: 1_000, expiresAt: 10_000_000_000_000 });
    expect(await repo.get('s1')).toEqual({
      id: 's1',
      userId,
      createdAt: 1_000,
      expiresAt: 10_000_000_000_000,
      revokedAt: null,
      userAgent: '',
      address: '',
      lastUsedAt: 1_000,
      enrolOnly: false,
    });
  });

  it('refuses a session of a user that does not exist', async () => {
    await expect(
      repo.create({ id: 's2', userId: userId + 1, createdAt: 1, expiresAt: 2 }),
    ).rejects.toThrow();
  });

  it('finds and ends nothing by ids PostgreSQL cannot hold, on either engine', async () => {
    expect(await repo.get('s1\0')).toBeUndefined();
    expect(await repo.listActive(2 ** 31, 0)).toEqual([]);
    await repo.revoke('s1\0');
    await repo.revokeAllForUser(2 ** 31);
    await repo.revokeAllForUser(userId, 's1\0');
    expect((await repo.get('s1'))?.revokedAt).toEqual(expect.any(Number));
  });
});
