import { describe, expect, it } from 'vitest';
import { AttemptsRepo } from '../store/attempts.repo.ts';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import type { AttemptCounter } from './attempt-counter.ts';
import { DatabaseAttemptCounter } from './database-attempt-counter.ts';
import { MemoryAttemptCounter } from './memory-attempt-counter.ts';

const { connect } = oneDatabasePerTest();

const MAX = 3;
const WINDOW_MS = 60_000;

describe.each([
  ['in memory', () => Promise.resolve(new MemoryAttemptCounter(MAX, WINDOW_MS))],
  [
    'in the database',
    async () =>
      new DatabaseAttemptCounter(new AttemptsRepo(await connect()), 'login', MAX, WINDOW_MS),
  ],
] as const)('attempt counter %s', (_name, make: () => Promise<AttemptCounter>) => {
  it('allows max attempts per window, then says how long to wait', async () => {
    const counter = await make();
    const t = 1_000_000;
    expect(await counter.retryAfter('ip:1', t)).toBe(0);
    for (let i = 0; i < MAX - 1; i++) await counter.hit('ip:1', t + i);
    expect(await counter.retryAfter('ip:1', t + 10)).toBe(0);
    await counter.hit('ip:1', t + 10);
    // The window started at the first attempt: 60 s from t, so 59.99 s from t + 10 → 60 s.
    expect(await counter.retryAfter('ip:1', t + 10)).toBe(60);
    expect(await counter.retryAfter('ip:1', t + WINDOW_MS - 1)).toBe(1);
    expect(await counter.retryAfter('ip:2', t + 10)).toBe(0);
  });

  it('starts a new window once the old one ended', async () => {
    const counter = await make();
    const t = 2_000_000;
    for (let i = 0; i < MAX; i++) await counter.hit('user:ann', t);
    expect(await counter.retryAfter('user:ann', t)).toBeGreaterThan(0);
    expect(await counter.retryAfter('user:ann', t + WINDOW_MS)).toBe(0);
    await counter.hit('user:ann', t + WINDOW_MS);
    // One attempt in the new window: under the limit again.
    expect(await counter.retryAfter('user:ann', t + WINDOW_MS)).toBe(0);
    for (let i = 1; i < MAX; i++) await counter.hit('user:ann', t + WINDOW_MS);
    expect(await counter.retryAfter('user:ann', t + WINDOW_MS)).toBe(60);
  });

  it('prunes only the windows that ended', async () => {
    const counter = await make();
    await counter.hit('old', 0);
    await counter.hit('new', 30_000);
    expect(await counter.prune(WINDOW_MS)).toBe(1);
    for (let i = 0; i < MAX; i++) await counter.hit('new', 30_000);
    expect(await counter.retryAfter('new', WINDOW_MS)).toBeGreaterThan(0);
  });
});

describe('attempt counter in memory', () => {
  it('drops ended windows when many keys have counted', async () => {
    const counter = new MemoryAttemptCounter(MAX, 1000);
    for (let i = 0; i <= 10_000; i++) await counter.hit(`ip:${i}`, 0);
    expect(counter.size).toBe(10_001);
    // The first key after the windows ended clears them out.
    await counter.hit('ip:late', 1000);
    expect(counter.size).toBe(1);
  });
});

describe('attempt counter across instances', () => {
  it('counts an attempt made on one instance on the other', async () => {
    const a = new DatabaseAttemptCounter(new AttemptsRepo(await connect()), 'login', 2, WINDOW_MS);
    const b = new DatabaseAttemptCounter(new AttemptsRepo(await connect()), 'login', 2, WINDOW_MS);
    await a.hit('ip:9', 5000);
    expect(await b.retryAfter('ip:9', 5000)).toBe(0);
    await b.hit('ip:9', 5000);
    expect(await a.retryAfter('ip:9', 5000)).toBe(60);
    expect(await b.retryAfter('ip:9', 5000)).toBe(60);
  });

  it('keeps the counters of different names apart', async () => {
    const repo = new AttemptsRepo(await connect());
    const login = new DatabaseAttemptCounter(repo, 'login', 1, WINDOW_MS);
    const signup = new DatabaseAttemptCounter(repo, 'signup', 1, WINDOW_MS);
    await login.hit('ip:1', 0);
    expect(await login.retryAfter('ip:1', 0)).toBe(60);
    expect(await signup.retryAfter('ip:1', 0)).toBe(0);
  });

  it('loses no attempt when two instances count at the same time', async () => {
    const repoA = new AttemptsRepo(await connect());
    const repoB = new AttemptsRepo(await connect());
    const a = new DatabaseAttemptCounter(repoA, 'login', 1000, WINDOW_MS);
    const b = new DatabaseAttemptCounter(repoB, 'login', 1000, WINDOW_MS);
    const hits = Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit('ip:flood', 7000));
    await Promise.all(hits);
    expect(await repoA.get('login', 'ip:flood')).toEqual({ count: 60, resetAt: 7000 + WINDOW_MS });
  });
});
