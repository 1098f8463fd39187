import { describe, expect, it } from 'vitest';
import { UploadLocks } from './upload-locks.ts';

describe('upload locks', () => {
  it('lets a newcomer abort the holder and wait until it has released', async () => {
    const locks = new UploadLocks();
    const first = await locks.acquire('u1');
    const events: string[] = [];
    first.signal.addEventListener('abort', () => {
      events.push('first aborted');
      // The holder flushes its data before giving the upload back.
      setImmediate(() => {
        events.push('first released');
        first.release();
      });
    });
    const second = await locks.acquire('u1');
    events.push('second acquired');
    expect(events).toEqual(['first aborted', 'first released', 'second acquired']);
    expect(second.signal.aborted).toBe(false);
    expect(locks.isHeld('u1')).toBe(true);
    second.release();
    second.release();
    expect(locks.isHeld('u1')).toBe(false);
  });

  it('keeps different uploads independent and aborts all at shutdown', async () => {
    const locks = new UploadLocks();
    const a = await locks.acquire('a');
    const b = await locks.acquire('b');
    expect(a.signal.aborted || b.signal.aborted).toBe(false);
    a.signal.addEventListener('abort', () => a.release());
    b.signal.addEventListener('abort', () => b.release());
    await locks.abortAll();
    expect(a.signal.aborted && b.signal.aborted).toBe(true);
    expect(locks.isHeld('a') || locks.isHeld('b')).toBe(false);
  });
});
