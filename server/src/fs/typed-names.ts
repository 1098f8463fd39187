/**
 * A folder's children as a listing first sees them, before any stat: names and what each directory
 * entry says it is. A directory read gives them as strings (`ListedNames`); the search index holds
 * every watched folder's names as bytes and hands them out undecoded (`TableChildren`), so that a
 * million-entry folder's first rows need neither a directory read nor a million strings.
 */

/** What a directory entry says a child is, before any stat. */
export const EntryKind = {
  /** The file system does not say (DT_UNKNOWN): only a stat can tell. */
  Unknown: 0,
  File: 1,
  Dir: 2,
  Symlink: 3,
  /** A socket, device or pipe. */
  Other: 4,
} as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

/** Names a listing looks for among a folder's children, in lower-case ASCII (`someMatch`). */
export interface NamePattern {
  /** Whole names of folders. */
  readonly folders: readonly string[];
  /** Endings of the names of other children (files, links, sockets…). */
  readonly endings: readonly string[];
}

/** Whether a child's name matches a pattern, compared in lower case. */
export function matchesNamePattern(pattern: NamePattern, name: string, isDir: boolean): boolean {
  if (isDir) return pattern.folders.includes(name.toLowerCase());
  // Only as much of the name as an ending is lowercased: a listing asks this of every name.
  return pattern.endings.some((ending) => name.slice(-ending.length).toLowerCase() === ending);
}

/** A folder's children, index by index. */
export interface TypedNames {
  readonly count: number;
  kind(i: number): EntryKind;
  name(i: number): string;
  /** The first UTF-16 unit of child i's name when it is ASCII, else -1; no string is made. */
  asciiFirstUnit(i: number): number;
  /** Whether some child matches the pattern (`matchesNamePattern`). */
  someMatch(pattern: NamePattern): boolean;
  /** Every name, index by index, in a new array the caller may reorder. */
  names(): string[];
  /** The children at these indices (ascending), in their order. */
  only(indices: readonly number[]): TypedNames;
}

/** Children as a directory read gives them: every name a string already. */
export class ListedNames implements TypedNames {
  constructor(
    private readonly list: readonly string[],
    private readonly kinds: readonly EntryKind[],
  ) {}

  get count(): number {
    return this.list.length;
  }

  kind(i: number): EntryKind {
    return this.kinds[i]!;
  }

  name(i: number): string {
    return this.list[i]!;
  }

  asciiFirstUnit(i: number): number {
    const unit = this.list[i]!.charCodeAt(0);
    return unit < 0x80 ? unit : -1; // NaN (no name) is not below either
  }

  someMatch(pattern: NamePattern): boolean {
    for (let i = 0; i < this.list.length; i++) {
      if (matchesNamePattern(pattern, this.list[i]!, this.kinds[i] === EntryKind.Dir)) return true;
    }
    return false;
  }

  names(): string[] {
    return this.list.slice();
  }

  only(indices: readonly number[]): ListedNames {
    return new ListedNames(
      indices.map((i) => this.list[i]!),
      indices.map((i) => this.kinds[i]!),
    );
  }
}
