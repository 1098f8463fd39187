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
  shown: number[];
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
  const shown: number[] = [];
  let numDirs = 0;
  for (let i = 0; i < children.count; i++) {
    if (!children.present(i)) continue;
    shown.push(i);
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
  return { types, subtitles, shown, numDirs };
}
