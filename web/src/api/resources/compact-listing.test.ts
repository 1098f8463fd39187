import type { CompactListingHead, Resource } from '@cabinet/protocol';
import { describe, expect, it, vi } from 'vitest';
import { CompactListingError, decodeCompactBatch, readCompactListing } from './compact-listing.ts';

const head: CompactListingHead = {
  path: '/photos/',
  name: 'photos',
  size: 4096,
  extension: '',
  modified: '2026-11-27T10:00:00Z',
  mode: 2147484141,
  isDir: true,
  isSymlink: false,
  type: '',
  numDirs: 1,
  numFiles: 2,
  sorting: { by: 'name', asc: false },
  count: 3,
  base: '/photos/',
  types: ['', 'invalid_link', 'video', 'audio', 'image', 'pdf', 'text', 'blob'],
};

const firstBatch = {
  name: ['album', 'clip.v1.mp4'],
  size: [4096, 1234],
  modified: ['2026-11-01T08:00:00.5+01:00', '1969-12-31T23:59:59Z'],
  mode: [2147484141, 420],
  flags: [1, 0],
  type: [0, 2],
  subtitles: [[1, ['/photos/clip.v1.srt']]],
};
const secondBatch = {
  name: ['README'],
  size: [7],
  modified: ['2026-11-27T10:00:00Z'],
  mode: [134218239],
  flags: [2],
  type: [6],
  subtitles: [],
};

/** The default reply the three entries above stand for. */
const expected: Resource = {
  path: '/photos/',
  name: 'photos',
  size: 4096,
  extension: '',
  modified: '2026-11-27T10:00:00Z',
  mode: 2147484141,
  isDir: true,
  isSymlink: false,
  type: '',
  numDirs: 1,
  numFiles: 2,
  sorting: { by: 'name', asc: false },
  items: [
    {
      path: '/photos/album',
      name: 'album',
      size: 4096,
      extension: '',
      modified: '2026-11-01T08:00:00.5+01:00',
      mode: 2147484141,
      isDir: true,
      isSymlink: false,
      type: '',
    },
    {
      path: '/photos/clip.v1.mp4',
      name: 'clip.v1.mp4',
      size: 1234,
      extension: '.mp4',
      modified: '1969-12-31T23:59:59Z',
      mode: 420,
      isDir: false,
      isSymlink: false,
      type: 'video',
      subtitles: ['/photos/clip.v1.srt'],
    },
    {
      path: '/photos/README',
      name: 'README',
      size: 7,
      extension: '',
      modified: '2026-11-27T10:00:00Z',
      mode: 134218239,
      isDir: false,
      isSymlink: true,
      type: 'text',
    },
  ],
};

/** A reply body cut into arbitrary pieces (mid-line, mid-character), as a network delivers it. */
function body(text: string, pieceBytes: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + pieceBytes));
      at += pieceBytes;
    },
  });
}

const reply = (...lines: unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

describe('the compact listing decoder', () => {
  it.each([1, 3, 64, 100_000])(
    'gives the default reply, read in pieces of %i bytes',
    async (piece) => {
      const onFirstRows = vi.fn();
      const resource = await readCompactListing(
        body(reply(head, firstBatch, secondBatch), piece),
        onFirstRows,
      );
      expect(resource).toEqual(expected);
      // The first rows were offered before the rest: the folder with the first batch only.
      expect(onFirstRows).toHaveBeenCalledTimes(1);
      expect(onFirstRows.mock.calls[0]![0]).toEqual({
        ...expected,
        items: expected.items!.slice(0, 2),
      });
    },
  );

  it('reads an empty folder and a last line without its newline', async () => {
    const empty = { ...head, numDirs: 0, numFiles: 0, count: 0 };
    expect(await readCompactListing(body(reply(empty), 5))).toEqual({
      ...expected,
      numDirs: 0,
      numFiles: 0,
      items: [],
    });
    const text = reply(head, firstBatch, secondBatch).slice(0, -1);
    expect(await readCompactListing(body(text, 7))).toEqual(expected);
  });

  it('takes the counts of a totals line when entries vanished while the folder was read', async () => {
    const announced = { ...head, numFiles: 4, count: 5 };
    const totals = { count: 3, numDirs: 1, numFiles: 2 };
    const onFirstRows = vi.fn();
    expect(
      await readCompactListing(
        body(reply(announced, firstBatch, secondBatch, totals), 9),
        onFirstRows,
      ),
    ).toEqual(expected);
    expect(onFirstRows).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an empty reply', ''],
    [
      'totals that differ from what was sent',
      reply(head, firstBatch, secondBatch, { count: 2, numDirs: 1, numFiles: 1 }),
    ],
    ['totals without their counts', reply(head, firstBatch, secondBatch, { count: 3 })],
    ['a head that is not JSON', '{"path":\n'],
    ['a head without its count', reply({ ...head, count: undefined }, firstBatch)],
    ['a cut reply', reply(head, firstBatch)],
    ['more entries than announced', reply({ ...head, count: 1 }, firstBatch)],
    ['columns of different lengths', reply(head, { ...firstBatch, size: [1] }, secondBatch)],
    ['an unknown type code', reply(head, { ...firstBatch, type: [0, 99] }, secondBatch)],
    ['a name that is not text', reply(head, { ...firstBatch, name: ['a', 5] }, secondBatch)],
    ['a batch that is not JSON', `${reply(head)}[1,2\n`],
  ])('refuses %s', async (_case, text) => {
    await expect(readCompactListing(body(text, 16))).rejects.toBeInstanceOf(CompactListingError);
  });

  it('decodes a batch on its own', () => {
    expect(decodeCompactBatch(head, JSON.stringify(secondBatch))).toEqual([expected.items![2]]);
  });
});
