import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { UsersRepo, isUniqueViolation, type UserRecord } from './users.repo.ts';

/** A user row with only what the repository itself reads. */
const newUser = (username: string) =>
  ({ username, passwordHash: 'hash', scope: '.', locale: 'en' }) as unknown as Omit<
    UserRecord,
    'id' | 'updatedAt'
  >;

describe('users table', () => {
  let database: TestDatabase;
  let repo: UsersRepo;
  beforeAll(async () => {
    database = await openTestDatabase();
    repo = new UsersRepo(database.db);
  });
  afterAll(() => database.close());

  it('numbers users from 1 and reads ids, times and counts back as numbers', async () => {
    const first = await repo.insert(newUser('ann'));
    const second = await repo.insert(newUser('bob'));
    expect([first, second]).toEqual([1, 2]);
    const bob = await repo.byUsername('bob');
    expect(bob).toMatchObject({ id: 2, username: 'bob', passwordHash: 'hash', scope: '.' });
    expect(typeof bob?.updatedAt).toBe('number');
    expect(await repo.count()).toBe(2);
    expect((await repo.list()).map((u) => u.username)).toEqual(['ann', 'bob']);
  });

  it('tells a taken username by its unique-violation error', async () => {
    const error = await repo.insert(newUser('ann')).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('matches usernames case-sensitively', async () => {
    expect(await repo.byUsername('ANN')).toBeUndefined();
  });

  it('finds no user by an id outside 32 bits or a name with U+0000, on either engine', async () => {
    expect(await repo.byId(2 ** 31)).toBeUndefined();
    expect(await repo.byId(999_999_999_999_999)).toBeUndefined();
    expect(await repo.byId(1.5)).toBeUndefined();
    expect(await repo.remove(2 ** 40)).toBe(false);
    expect(await repo.byUsername('ann\0')).toBeUndefined();
    expect(await repo.count()).toBe(2);
  });
});
