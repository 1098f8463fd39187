import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EntryBudget, estimatedEntries } from './listing-memory.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('EntryBudget', () => {
  it('lets small listings through without counting them', async () => {
    const budget = new EntryBudget(100, 10);
    const release = await budget.take(100);
    const small = await budget.take(10);
    expect(budget.held).toBe(100);
    small();
    release();
    expect(budget.held).toBe(0);
  });

  it('holds big listings back until earlier ones give their entries back, in arrival order', async () => {
    const budget = new EntryBudget(100, 10);
    const first = await budget.take(60);
    const started: string[] = [];
    const second = budget.take(60).then((release) => (started.push('second'), release));
    const third = budget.take(30).then((release) => (started.push('third'), release));
    await tick();
    // The third would fit, but it does not overtake the second.
    expect(started).toEqual([]);
    first();
    const releaseSecond = await second;
    const releaseThird = await third;
    expect(started).toEqual(['second', 'third']);
    expect(budget.held).toBe(90);
    releaseSecond();
    releaseSecond(); // a second call gives nothing back twice
    releaseThird();
    expect(budget.held).toBe(0);
  });

  it('runs a folder bigger than the whole budget alone', async () => {
    const budget = new EntryBudget(100, 10);
    const huge = await budget.take(1_000_000);
    expect(budget.held).toBe(100);
    let next = false;
    const waiting = budget.take(20).then((release) => ((next = true), release));
    await tick();
    expect(next).toBe(false);
    huge();
    (await waiting)();
    expect(next).toBe(true);
  });

  it('judges a big folder big before reading it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-estimate-'));
    try {
      for (let i = 0; i < 3000; i++) await writeFile(path.join(dir, `file-${i}.txt`), '');
      const estimate = estimatedEntries(await stat(dir));
      expect(estimate).toBeGreaterThanOrEqual(3000);
      expect(estimate).toBeLessThan(3000 * 4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
