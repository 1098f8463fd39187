import { describe, expect, it } from 'vitest';
import { extensionOf } from '../../file-kinds/file-type.ts';
import { formatTime, goFileMode } from './file-info.ts';
import { itemTail } from './item-json.ts';

describe('itemTail', () => {
  // What a client parses: the item as JSON.stringify writes it, whatever the name holds.
  it.each([
    'plain.txt',
    'no extension',
    'quote".txt',
    'back\\slash.md',
    'tab\there.c"s"v',
    'new\nline.\u0001x',
    'été.jpeg',
    'lone \ud800 surrogate.t\udfffxt',
    'emoji 😀.p"n"g',
    '.hidden',
  ])('writes %j as JSON.stringify does', (name) => {
    const fields = {
      name,
      size: 1234,
      mtimeMs: 1_764_380_000_123.5,
      mode: 0o100644,
      isDir: false,
      isSymlink: false,
      type: 'text',
    };
    const json = '{"path":"/folder/' + itemTail(fields);
    const expected = JSON.stringify({
      path: `/folder/${name}`,
      name,
      size: fields.size,
      extension: extensionOf(name),
      modified: formatTime(fields.mtimeMs),
      mode: goFileMode(fields.mode),
      isDir: false,
      isSymlink: false,
      type: 'text',
    });
    expect(json).toBe(expected);
  });
});
