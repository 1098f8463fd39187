import type { Share } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { shareOrder } from './share-order.ts';

const link = (hash: string, expire: number): Share => ({
  hash,
  expire,
  path: '/a',
  userID: 1,
  hasPassword: false,
  downloadLimit: 0,
  downloads: 0,
  isDir: false,
  isRequest: false,
  username: 'u',
});

describe('shareOrder', () => {
  it('puts permanent links first, then the rest by expiry, soonest first', () => {
    const ordered = shareOrder([link('late', 300), link('forever', 0), link('soon', 100)]);
    expect(ordered.map((s) => s.hash)).toEqual(['forever', 'soon', 'late']);
  });
});
