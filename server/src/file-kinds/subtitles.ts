import { joinVirtual } from '../fs/canonical-path.ts';
import type { FolderChildren, ScopedFs } from '../fs/scoped-fs.ts';
import { matchesNamePattern, type NamePattern } from '../fs/typed-names.ts';

/** Subtitle formats the app can show (converted to WebVTT by the subtitle route). */
export const SUBTITLE_EXTENSIONS = ['.vtt', '.srt', '.ass', '.ssa'];

/**
 * The children that hold or are subtitles: folders named `sub`, `subs` or `subtitles` and files
 * with a subtitle extension, in any case.
 */
export const SUBTITLE_NAMES: NamePattern = {
  folders: ['sub', 'subs', 'subtitles'],
  endings: SUBTITLE_EXTENSIONS,
};

const isSubtitle = (name: string) => matchesNamePattern(SUBTITLE_NAMES, name, false);
const isSubtitleFolder = (name: string) => matchesNamePattern(SUBTITLE_NAMES, name, true);

const baseName = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/** Whether a child may hold or be a video's subtitles (a listing cache then stays out). */
export function offersSubtitles(name: string, isDir: boolean): boolean {
  return matchesNamePattern(SUBTITLE_NAMES, name, isDir);
}

/**
 * Finds subtitles for videos in one folder: files beside the video whose name
 * starts with the video's base name, every subtitle directly inside a `sub`/`subs`/`subtitles`
 * folder, and those one level deeper in sub-folders named after the video. Everything is read
 * through ScopedFs, so denied or hidden subtitles are never offered. Folder contents are read once
 * per call and shared by all videos of the folder.
 */
export class SubtitleFinder {
  private readonly folders = new Map<string, Promise<FolderChildren | null>>();

  /** Paths of the subtitle files and subtitle folders among the siblings, picked out once. */
  private readonly subtitleFiles: { name: string; path: string }[] = [];
  private readonly subtitleFolders: string[] = [];

  constructor(
    private readonly fs: ScopedFs,
    siblings: FolderChildren,
  ) {
    // One pass here keeps a listing linear: `find` runs once per video and must not rescan every
    // sibling (100,000 entries with a few thousand videos made that quadratic).
    for (let i = 0; i < siblings.count; i++) {
      if (!siblings.present(i)) continue;
      const name = siblings.name(i);
      if (siblings.isFile(i) && isSubtitle(name))
        this.subtitleFiles.push({ name, path: siblings.path(i) });
      else if (siblings.isDir(i) && isSubtitleFolder(name))
        this.subtitleFolders.push(siblings.path(i));
    }
  }

  /** Scope paths of the subtitles of one video in the folder. */
  async find(videoName: string): Promise<string[]> {
    const base = baseName(videoName);
    const found: string[] = [];
    for (const file of this.subtitleFiles) {
      if (file.name.startsWith(base)) found.push(file.path);
    }
    for (const folder of this.subtitleFolders) {
      const children = await this.children(folder);
      for (let i = 0; children && i < children.count; i++) {
        if (!children.present(i)) continue;
        const name = children.name(i);
        if (children.isFile(i) && isSubtitle(name)) found.push(children.path(i));
        else if (children.isDir(i) && name.startsWith(base)) {
          const inner = await this.children(children.path(i));
          for (let j = 0; inner && j < inner.count; j++) {
            if (inner.present(j) && inner.isFile(j) && isSubtitle(inner.name(j))) {
              found.push(joinVirtual(children.path(i), inner.name(j)));
            }
          }
        }
      }
    }
    return found;
  }

  private children(path: string): Promise<FolderChildren | null> {
    let pending = this.folders.get(path);
    if (!pending) {
      pending = this.fs.listChildren(path).then(
        (result) => result.children,
        () => null,
      );
      this.folders.set(path, pending);
    }
    return pending;
  }
}
