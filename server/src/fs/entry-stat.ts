import { constants, type Stats } from 'node:fs';

/**
 * The part of a stat that listings need. node's `Stats` satisfies it; `SlimStat` holds only these
 * three numbers, so a 100,000-entry folder keeps ~4 MiB of stats alive instead of ~80 MiB of
 * `Stats` objects (with their Date fields) while it is sorted and written out.
 */
export interface EntryStat {
  readonly size: number;
  readonly mtimeMs: number;
  /** st_mode: type and permission bits. */
  readonly mode: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

const { S_IFMT, S_IFREG, S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK } = constants;

/** st_mode's file type mask and values, for code outside fs/ that reads modes. */
export const FILE_TYPE = { S_IFMT, S_IFREG, S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK };

/** An EntryStat of three numbers; the type tests read st_mode as the kernel reports it. */
export class SlimStat implements EntryStat {
  constructor(
    readonly size: number,
    readonly mtimeMs: number,
    readonly mode: number,
  ) {}

  static of(stats: Stats): SlimStat {
    return new SlimStat(stats.size, stats.mtimeMs, stats.mode);
  }

  isFile(): boolean {
    return this.is(S_IFREG);
  }
  isDirectory(): boolean {
    return this.is(S_IFDIR);
  }
  isSymbolicLink(): boolean {
    return this.is(S_IFLNK);
  }
  isFIFO(): boolean {
    return this.is(S_IFIFO);
  }
  isSocket(): boolean {
    return this.is(S_IFSOCK);
  }
  isCharacterDevice(): boolean {
    return this.is(S_IFCHR);
  }
  isBlockDevice(): boolean {
    return this.is(S_IFBLK);
  }

  private is(type: number): boolean {
    return (this.mode & S_IFMT) === type;
  }
}
