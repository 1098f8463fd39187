import { describe, expect, it } from 'vitest';
import { EntryBudget } from './listing-memory.ts';

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
});
