import { constants, type Stats } from 'node:fs';
import path from 'node:path';
import { joinVirtual } from '../../fs/canonical-path.ts';
import type { ChildStats } from './child-stats.ts';
import { SlimStat, type EntryStat } from '../../fs/entry-stat.ts';

const { S_IFMT, S_IFDIR, S_IFREG } = constants;

/** One child in a folder listing (`ScopedFs.list`): slim stats, paths built when read. */
export interface ListEntry {
  readonly name: string;
  /** Canonical virtual path. */
  readonly path: string;
  /** Real path of the target. */
  readonly real: string;
  /** Stat of the target; null for a broken (dangling) symlink. */
  readonly stat: EntryStat | null;
  readonly isSymlink: boolean;
  /** For symlinks: the link's own lstat (what a broken link reports). */
  readonly linkStat?: EntryStat;
  /** First bytes of the file, when the listing asked for them. */
  head?: Buffer;
}

/** What a symlinked child resolved to. */
interface LinkTarget {
  /** Real path of the target. */
  readonly real: string;
  /** The link's own lstat. */
  readonly linkStat: EntryStat;
  /** False for a dangling link. */
  readonly exists: boolean;
  readonly head?: Buffer;
}

const joinReal = (dir: string, name: string) =>
  dir === path.sep ? `${path.sep}${name}` : `${dir}${path.sep}${name}`;

/**
 * The children of one folder as `ScopedFs.listChildren` read them, packed: names and their stat
 * numbers by index, no object per child, so a 100,000-entry folder is a few arrays. A child that
 * vanished, could not be read or may not be shown is not `present`. For a symlink the numbers are
 * its target's, or the link's own when it dangles.
 */
export class FolderChildren {
  private readonly links = new Map<number, LinkTarget>();

  constructor(
    /** The folder's canonical virtual path and real path. */
    readonly folder: { readonly path: string; readonly real: string },
    readonly names: readonly string[],
    private readonly stats: ChildStats,
  ) {}

  get count(): number {
    return this.names.length;
  }
  name(i: number): string {
    return this.names[i]!;
  }
  present(i: number): boolean {
    return this.stats.mode(i) >= 0;
  }
  /** st_mode (of the target for a link). */
  mode(i: number): number {
    return this.stats.mode(i);
  }
  size(i: number): number {
    return this.stats.size(i);
  }
  mtimeMs(i: number): number {
    return this.stats.mtimeMs(i);
  }
  /** Hard links of the entry itself (lstat; 1 for most files). */
  nlink(i: number): number {
    return this.stats.nlink(i);
  }
  isDir(i: number): boolean {
    return (this.stats.mode(i) & S_IFMT) === S_IFDIR; // a dangling link has its own mode
  }
  isFile(i: number): boolean {
    return (this.stats.mode(i) & S_IFMT) === S_IFREG;
  }
  isSymlink(i: number): boolean {
    return this.links.has(i);
  }
  /** A dangling symlink: its numbers are the link's own. */
  isBroken(i: number): boolean {
    return this.links.get(i)?.exists === false;
  }
  /** Canonical virtual path. */
  path(i: number): string {
    return joinVirtual(this.folder.path, this.names[i]!);
  }
  /** Real path of the target. */
  real(i: number): string {
    return this.links.get(i)?.real ?? joinReal(this.folder.real, this.names[i]!);
  }
  /** The first bytes, when they were asked for and the child is a small enough file. */
  head(i: number): Buffer | undefined {
    const link = this.links.get(i);
    return link ? link.head : this.stats.head(i);
  }
  stat(i: number): EntryStat {
    return new SlimStat(this.size(i), this.mtimeMs(i), this.mode(i));
  }

  /** The child as an object, for callers that keep a few. */
  entry(i: number): ListEntry {
    const link = this.links.get(i);
    const stat = link?.exists === false ? null : this.stat(i);
    const entry: ListEntry = {
      name: this.names[i]!,
      path: this.path(i),
      real: this.real(i),
      stat,
      isSymlink: link !== undefined,
      ...(link && { linkStat: link.linkStat }),
    };
    const head = this.head(i);
    if (head) entry.head = head;
    return entry;
  }

  /** Present children as objects. */
  entries(): ListEntry[] {
    const entries: ListEntry[] = [];
    for (let i = 0; i < this.count; i++) if (this.present(i)) entries.push(this.entry(i));
    return entries;
  }

  /** Records what a symlinked child resolved to (`target` null: it dangles). */
  setLink(i: number, real: string, target: Stats | null, linkStat: Stats, head?: Buffer): void {
    const shown = target ?? linkStat;
    this.stats.set(i, shown.size, shown.mtimeMs, shown.mode);
    this.links.set(i, {
      real,
      linkStat: SlimStat.of(linkStat),
      exists: target !== null,
      ...(head && { head }),
    });
  }

  /** Leaves a child out (a link escaping the scope, looping or denied). */
  omit(i: number): void {
    this.stats.set(i, 0, 0, -1);
  }
}
