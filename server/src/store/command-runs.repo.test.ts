import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { CommandRunsRepo, type CommandRunRecord } from './command-runs.repo.ts';

describe('command runs table', () => {
  let database: TestDatabase;
  let repo: CommandRunsRepo;
  const run = (over: Partial<CommandRunRecord>): CommandRunRecord => ({
    kind: 'command',
    userId: 1,
    username: 'ann',
    path: '/',
    line: 'ls',
    outcome: 'exited',
    exitCode: 0,
    durationMs: 12,
    startedAt: 1_700_000_000_000,
    ...over,
  });
  beforeAll(async () => {
    database = await openTestDatabase();
    repo = new CommandRunsRepo(database.db);
  });
  afterAll(() => database.close());

  it('lists the newest first, same start time by id, with numbers as numbers', async () => {
    await repo.insert(run({ line: 'first' }));
    await repo.insert(run({ line: 'second', exitCode: null, outcome: 'refused' }));
    await repo.insert(run({ line: 'older', startedAt: 1 }));
    expect(await repo.latest(2)).toEqual([
      { id: 2, ...run({ line: 'second', exitCode: null, outcome: 'refused' }) },
      { id: 1, ...run({ line: 'first' }) },
    ]);
  });

  it('records a line and path holding U+0000, shown as ␀ on either engine', async () => {
    await repo.insert(run({ line: 'ls a\0b', path: '/x\0y', startedAt: 2_000_000_000_000 }));
    expect((await repo.latest(1))[0]).toMatchObject({ line: 'ls a␀b', path: '/x␀y' });
  });
});
