import { describe, expect, it } from 'vitest';
import { baseNameLength, freeName, nameProblem } from './entry-name.ts';

describe('nameProblem', () => {
  it.each([
    ['', 'dialogs.nameRequired'],
    ['.', 'dialogs.nameInvalid'],
    ['..', 'dialogs.nameInvalid'],
    ['a/b', 'dialogs.nameInvalid'],
    ['a\\b', 'dialogs.nameInvalid'],
    ['report.pdf', null],
    ['...', null],
    ['with space & ü', null],
  ])('%j → %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });
});

describe('baseNameLength', () => {
  it.each([
    ['notes.txt', false, 5],
    ['archive.tar.gz', false, 11],
    ['.bashrc', false, 7],
    ['README', false, 6],
    ['photos.2024', true, 11],
  ])('%j (folder: %s) selects %i characters', (name, isDir, length) => {
    expect(baseNameLength(name, isDir)).toBe(length);
  });
});

describe('freeName', () => {
  it('keeps a name nobody uses', () => {
    expect(freeName('a.txt', new Set(['b.txt']))).toBe('a.txt');
  });

  it('numbers before the extension, skipping taken numbers, as the server does', () => {
    expect(freeName('a.txt', new Set(['a.txt']))).toBe('a(1).txt');
    expect(freeName('a.txt', new Set(['a.txt', 'a(1).txt']))).toBe('a(2).txt');
    expect(freeName('a.tar.gz', new Set(['a.tar.gz']))).toBe('a.tar(1).gz');
    expect(freeName('.bashrc', new Set(['.bashrc']))).toBe('.bashrc(1)');
    expect(freeName('folder', new Set(['folder']))).toBe('folder(1)');
  });
});
