import { describe, expect, it } from 'vitest';
import { nextSortState, sortStateFromWire, sortStateToWire } from './sorting.ts';

describe('sorting on the wire', () => {
  it.each([
    [
      { by: 'name', asc: false },
      { by: 'name', ascending: true },
    ],
    [
      { by: 'name', asc: true },
      { by: 'name', ascending: false },
    ],
    [
      { by: 'size', asc: true },
      { by: 'size', ascending: true },
    ],
    [
      { by: 'modified', asc: false },
      { by: 'modified', ascending: false },
    ],
    [
      { by: '', asc: false },
      { by: 'name', ascending: true },
    ],
    [undefined, { by: 'name', ascending: true }],
  ])('%j reads as %j', (wire, state) => {
    expect(sortStateFromWire(wire)).toEqual(state);
  });

  it('writes the inverted name flag back', () => {
    expect(sortStateToWire({ by: 'name', ascending: true })).toEqual({ by: 'name', asc: false });
    expect(sortStateToWire({ by: 'size', ascending: true })).toEqual({ by: 'size', asc: true });
  });
});

describe('nextSortState', () => {
  it('flips the direction of the current column', () => {
    expect(nextSortState({ by: 'size', ascending: true }, 'size')).toEqual({
      by: 'size',
      ascending: false,
    });
  });

  it('starts another column ascending', () => {
    expect(nextSortState({ by: 'name', ascending: false }, 'modified')).toEqual({
      by: 'modified',
      ascending: true,
    });
  });
});
