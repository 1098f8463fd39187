import { detectType } from '../../file-kinds/file-type.ts';
import type { SubtitleFinder } from '../../file-kinds/subtitles.ts';
import type { FolderChildren } from '../../fs/scoped-fs.ts';
import { typeCode } from '../../tree/listing/listed-types.ts';

/** What `typeChildren` finds in read children. */
export interface TypedChildren {
  /** Type of each child, by index, as its position in LISTED_TYPES. */
  types: Uint8Array;
  /** Subtitles of the videos that have some, by index. */
  subtitles: Map<number, string[]>;
  /** Indices of the children present, in their order. */
  shown: Uint32Array;
  numDirs: number;
}

/**
 * Types each present child (folders are type '', dangling links 'invalid_link') and finds the
 * videos' subtitles; `subtitleFinder` undefined when the folder offers none.
 */
export async function typeChildren(
  children: FolderChildren,
  subtitleFinder: SubtitleFinder | undefined,
): Promise<TypedChildren> {
  const types = new Uint8Array(children.count);
  const subtitles = new Map<number, string[]>();
  // Typed, not an array grown entry by entry: its grown copies of a big folder's indices sat in
  // V8's large-object space until its next full collection (issue #37).
  const present = new Uint32Array(children.count);
  let count = 0;
  let numDirs = 0;
  for (let i = 0; i < children.count; i++) {
    if (!children.present(i)) continue;
    present[count++] = i;
    if (children.isBroken(i)) {
      types[i] = typeCode.get('invalid_link')!;
    } else if (children.isDir(i)) {
      numDirs++; // type '' (code 0)
    } else {
      const name = children.name(i);
      const type = detectType(name, children.stat(i), children.head(i));
      types[i] = typeCode.get(type)!;
      if (type === 'video' && subtitleFinder) {
        const found = await subtitleFinder.find(name);
        if (found.length > 0) subtitles.set(i, found);
      }
    }
  }
  return { types, subtitles, shown: present.subarray(0, count), numDirs };
}
