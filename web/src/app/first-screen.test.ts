import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: the gate opens once per page load. */
const fresh = async () => {
  vi.resetModules();
  return import('./first-screen.ts');
};

/** Whether a promise has settled after pending microtasks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the first screen gate', () => {
  it('holds what waits for it until a screen says it is shown', async () => {
    const { afterFirstScreen, firstScreenShown } = await fresh();
    const waiting = afterFirstScreen();
    expect(await settled(waiting)).toBe(false);
    firstScreenShown();
    // Not before the screen is painted (here: the next timer turn).
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(0);
    expect(await settled(waiting)).toBe(true);
    // Later waits and marks change nothing.
    firstScreenShown();
    expect(await settled(afterFirstScreen())).toBe(true);
  });

  it('opens when a screen is shown before anything waits', async () => {
    const { afterFirstScreen, firstScreenShown } = await fresh();
    firstScreenShown();
    vi.advanceTimersByTime(0);
    expect(await settled(afterFirstScreen())).toBe(true);
  });

  it('opens after its fallback delay when no screen says so', async () => {
    const { afterFirstScreen } = await fresh();
    const waiting = afterFirstScreen();
    vi.advanceTimersByTime(29_999);
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });
});
