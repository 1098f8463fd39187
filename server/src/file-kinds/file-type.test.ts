import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectType, extensionOf, looksBinary, sniffsByName } from './file-type.ts';

const file = (size: number) => ({ isFile: () => true, size }) as Stats;
const pipe = { isFile: () => false, size: 0 } as Stats;

describe('file type detection', () => {
  it.each([
    ['a.txt', '.txt'],
    ['archive.tar.gz', '.gz'],
    ['.bashrc', '.bashrc'],
    ['noext', ''],
  ])('extension of %j is %j', (name, ext) => {
    expect(extensionOf(name)).toBe(ext);
  });

  it.each([
    ['movie.mkv', undefined, 'video'],
    ['song.flac', undefined, 'audio'],
    ['photo.JPG', undefined, 'image'],
    ['vector.svg', undefined, 'image'],
    ['doc.pdf', undefined, 'pdf'],
    ['data.json', undefined, 'text'],
    ['main.rs', undefined, 'text'],
    ['subs.srt', undefined, 'text'],
    ['Makefile', Buffer.from('all:\n\techo hi\n'), 'text'],
    ['blob', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x01]), 'blob'],
    ['utf8', Buffer.from('héllo wörld'), 'text'],
    ['cut', Buffer.from('héllo').subarray(0, 2), 'text'],
    ['latin1', Buffer.from([0x68, 0xe9, 0x6c, 0x6c, 0x6f]), 'blob'],
    ['clip.ts', Buffer.from([0x47, 0x40, 0x00, 0x10]), 'video'],
    ['code.ts', Buffer.from('export {};\n'), 'text'],
    ['archive.zip', undefined, 'blob'],
  ])('types %s as %s', (name, head, expected) => {
    expect(detectType(name, file(100), head)).toBe(expected);
  });

  it('treats large text as blob and specials as blob', () => {
    expect(detectType('big.txt', file(10 * 1024 * 1024 + 1))).toBe('blob');
    expect(detectType('big.txt', file(10 * 1024 * 1024))).toBe('text');
    expect(detectType('fifo.txt', pipe)).toBe('blob');
  });

  it('sniffs only when the name leaves the kind open', () => {
    expect(sniffsByName('noext')).toBe(true);
    expect(sniffsByName('a.ts')).toBe(true);
    expect(sniffsByName('a.txt')).toBe(false);
    expect(sniffsByName('a.png')).toBe(false);
  });

  it('calls control bytes binary', () => {
    expect(looksBinary(Buffer.from([0x41, 0x08]))).toBe(true);
    expect(looksBinary(Buffer.from('tab\tand\nnewline'))).toBe(false);
  });
});
