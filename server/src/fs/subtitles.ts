import { joinVirtual } from './canonical-path.ts';
import type { ListEntry, ScopedFs } from './scoped-fs.ts';

/** Subtitle formats the app can show (converted to WebVTT by the subtitle route). */
export const SUBTITLE_EXTENSIONS = ['.vtt', '.srt', '.ass', '.ssa'];

/** Folder names that hold subtitles for the videos beside them (case-insensitive). */
const SUBTITLE_FOLDERS = new Set(['sub', 'subs', 'subtitles']);

const isSubtitle = (name: string) =>
  SUBTITLE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

const baseName = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/**
 * Finds subtitles for videos in one folder (API.md section 8): files beside the video whose name
 * starts with the video's base name, every subtitle directly inside a `sub`/`subs`/`subtitles`
 * folder, and those one level deeper in sub-folders named after the video. Everything is read
 * through ScopedFs, so denied or hidden subtitles are never offered. Folder contents are read once
 * per call and shared by all videos of the folder.
 */
export class SubtitleFinder {
  private readonly folders = new Map<string, Promise<ListEntry[]>>();

  /** Subtitle files and subtitle folders among the siblings, picked out once per folder. */
  private readonly subtitleFiles: ListEntry[] = [];
  private readonly subtitleFolders: ListEntry[] = [];

  constructor(
    private readonly fs: ScopedFs,
    siblings: readonly ListEntry[],
  ) {
    // One pass here keeps a listing linear: `find` runs once per video and must not rescan every
    // sibling (100,000 entries with a few thousand videos made that quadratic).
    for (const entry of siblings) {
      if (entry.stat?.isFile() && isSubtitle(entry.name)) this.subtitleFiles.push(entry);
      else if (entry.stat?.isDirectory() && SUBTITLE_FOLDERS.has(entry.name.toLowerCase()))
        this.subtitleFolders.push(entry);
    }
  }

  /** Scope paths of the subtitles of one video in the folder. */
  async find(videoName: string): Promise<string[]> {
    const base = baseName(videoName);
    const found: string[] = [];
    for (const entry of this.subtitleFiles) {
      if (entry.name.startsWith(base)) found.push(entry.path);
    }
    for (const folder of this.subtitleFolders) {
      for (const entry of await this.children(folder.path)) {
        if (entry.stat?.isFile() && isSubtitle(entry.name)) found.push(entry.path);
        else if (entry.stat?.isDirectory() && entry.name.startsWith(base)) {
          for (const inner of await this.children(entry.path)) {
            if (inner.stat?.isFile() && isSubtitle(inner.name)) {
              found.push(joinVirtual(entry.path, inner.name));
            }
          }
        }
      }
    }
    return found;
  }

  private children(path: string): Promise<ListEntry[]> {
    let pending = this.folders.get(path);
    if (!pending) {
      pending = this.fs.list(path).then(
        (result) => result.entries,
        () => [],
      );
      this.folders.set(path, pending);
    }
    return pending;
  }
}
