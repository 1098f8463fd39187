import { describe, expect, it } from 'vitest';
import { mapInOrder } from './map-in-order.ts';

/** A promise with its resolve and reject at hand, settled by the test in the order it picks. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Lets every pending callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('mapInOrder', () => {
  it('keeps at most `limit` calls in flight and returns results in the items’ order', async () => {
    const pending = Array.from({ length: 7 }, () => deferred<string>());
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const mapping = mapInOrder([0, 1, 2, 3, 4, 5, 6], 3, async (n) => {
      started.push(n);
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await pending[n]!.promise;
      } finally {
        inFlight -= 1;
      }
    });
    // Each time, the call that started last is answered first.
    const answered = new Set<number>();
    while (answered.size < 7) {
      await settle();
      const newest = started.findLast((n) => !answered.has(n))!;
      answered.add(newest);
      pending[newest]!.resolve(`r${newest}`);
    }
    expect(await mapping).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(most).toBe(3);
  });

  it('throws the first failure in item order, once every call settled', async () => {
    const pending = Array.from({ length: 4 }, () => deferred<number>());
    let settled = 0;
    const mapping = mapInOrder([0, 1, 2, 3], 4, (n) =>
      pending[n]!.promise.finally(() => (settled += 1)),
    );
    pending[3]!.reject(new Error('fourth'));
    await settle();
    pending[1]!.reject(new Error('second'));
    pending[0]!.resolve(0);
    await settle();
    expect(settled).toBe(3);
    pending[2]!.resolve(2);
    await expect(mapping).rejects.toThrow('second');
    expect(settled).toBe(4);
  });
});
