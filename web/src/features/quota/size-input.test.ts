import { describe, expect, it } from 'vitest';
import { parseSize, sizeInputText } from './size-input.ts';

describe('quota sizes as typed', () => {
  it('reads numbers with binary units, as people write them', () => {
    expect(parseSize('10 GB')).toBe(10 * 1024 ** 3);
    expect(parseSize('10GiB')).toBe(10 * 1024 ** 3);
    expect(parseSize('1.5 t')).toBe(1.5 * 1024 ** 4);
    expect(parseSize('1,5 MB')).toBe(1.5 * 1024 ** 2);
    expect(parseSize('500 mb')).toBe(500 * 1024 ** 2);
    expect(parseSize('2048')).toBe(2048);
    expect(parseSize('12 B')).toBe(12);
    expect(parseSize('  ')).toBe(0);
  });

  it('refuses what is not a size', () => {
    for (const text of ['ten GB', '-1 GB', '10 XB', 'GB', '1e9', '10 GB extra', '1.2.3 MB']) {
      expect(parseSize(text), text).toBeUndefined();
    }
  });

  it('shows a quota in the largest exact unit, and nothing for no quota', () => {
    expect(sizeInputText(0)).toBe('');
    expect(sizeInputText(10 * 1024 ** 3)).toBe('10 GiB');
    expect(sizeInputText(1536)).toBe('1.5 KiB');
    expect(sizeInputText(1000)).toBe('1000 B');
    expect(parseSize(sizeInputText(7 * 1024 ** 4))).toBe(7 * 1024 ** 4);
  });
});
