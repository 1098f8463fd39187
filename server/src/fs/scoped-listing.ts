import type { Stats } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { canonicalPath, joinVirtual } from './canonical-path.ts';
import {
  readFileHead,
  readNames,
  readSortedNames,
  readTypedNames,
  statChildren,
  type ChildStats,
} from '../tree/read/child-stats.ts';
import { FolderChildren, type ListEntry } from '../tree/read/folder-children.ts';
import { lstatOrNull, mapFsErrors } from './fs-errors.ts';
import type { JudgedFolder, Resolved, ScopeResolver } from './scope-resolver.ts';
import { isTempName } from './temp-files.ts';
import type { TypedNames } from './typed-names.ts';

/** One child in a walk. */
export interface Entry {
  name: string;
  /** Canonical virtual path. */
  path: string;
  /** Real path of the target (equals `entry` unless it is a symlink). */
  real: string;
  entry: string;
  /** Stat of the target; null for a broken (dangling) symlink. */
  stat: Stats | null;
  isSymlink: boolean;
  /** For symlinks: the link's own lstat (what a broken link reports). */
  linkStat?: Stats;
  /** First bytes of the file, when the listing asked for them. */
  head?: Buffer;
  /** Walks with `prune: false` also yield entries the rules deny, marked false here. */
  allowed: boolean;
  /** Depth below the walked folder (children are 1). */
  depth: number;
}

export interface ListOptions {
  /**
   * Which regular files to read the first bytes of (type sniffing), by name: `headBytes` bytes of
   * files of at most `headMaxSize` bytes are read.
   */
  wantHead?: (name: string) => boolean;
  headBytes?: number;
  headMaxSize?: number;
  /** Name order (the default); false when the caller sorts the entries itself. */
  sorted?: boolean;
}

export interface WalkOptions {
  /** Stop walking when aborted (client disconnected). */
  signal?: AbortSignal;
  /** Skip denied entries and do not descend into denied folders (default true). */
  prune?: boolean;
  /** Judge by rules only, ignoring hideDotfiles (descendant checks do, see docs/scoped-fs.md). */
  rulesOnly?: boolean;
  /**
   * A walk of the top of a view with grants also walks each grant, through its own view, after
   * the user's own files (archives and recursive listings of `/`, docs/teams.md).
   */
  grants?: boolean;
}

const { S_IFMT, S_IFLNK } = fsConstants;
const DOT = 0x2e;

/**
 * Listing and walking: what a user sees of a folder. Every child is judged by the resolver before
 * it is stat'ed; denied, hidden, temp and scope-escaping entries do not exist.
 */
export class ScopedListing {
  constructor(private readonly scope: ScopeResolver) {}

  /**
   * The visible children of a folder, sorted by name: denied, hidden, temp and scope-escaping
   * entries are left out (and so not counted); dangling links come back with `stat: null`.
   */
  async list(
    virtual: string | Resolved,
    options: ListOptions = {},
  ): Promise<{ dir: Resolved & { stat: Stats }; entries: ListEntry[] }> {
    const { dir, children } = await this.listChildren(virtual, options);
    return { dir, entries: children.entries() };
  }

  /**
   * The same children packed (FolderChildren), for big listings: no object per child. Children
   * that are left out are not `present`.
   */
  async listChildren(
    virtual: string | Resolved,
    options: ListOptions = {},
  ): Promise<{ dir: Resolved & { stat: Stats }; children: FolderChildren }> {
    const dir = await this.scope.stat(virtual);
    if (!dir.stat.isDirectory()) throw errors.badRequest('path is not a directory');
    return { dir, children: await this.readChildren(dir, options) };
  }

  /**
   * Every child of a folder the user may list, whatever the user's rules and hidden dotfiles say
   * (temp names aside), stat'ed with `lstat`: symlinks come back as links, unresolved. Only for
   * caches shared between users (the listing cache), which filter per user before anything is
   * shown (`isChildAllowed`); nothing of it may reach a reply unfiltered. Null when the folder
   * holds more than `maxCount` children.
   */
  async readAllChildren(
    dir: Resolved & { stat: Stats },
    options: ListOptions & { maxCount?: number } = {},
  ): Promise<FolderChildren | null> {
    const sorted = options.sorted ?? true;
    // Sorted names come in one trip to the thread pool, already in order (`readSortedNames`).
    const names = await mapFsErrors(() =>
      sorted ? readSortedNames(dir.real) : readNames(dir.real),
    );
    // Temp files left out in place: a filtered copy of 100,000 names was one more array for V8's
    // large-object space (issue #37).
    let kept = 0;
    for (const name of names) if (!isTempName(name)) names[kept++] = name;
    names.length = kept;
    // More than the caller could keep: null before anything is stat'ed.
    if (names.length > (options.maxCount ?? Infinity)) return null;
    return new FolderChildren(dir, names, await this.statNames(dir, names, options));
  }

  /**
   * Whether a child of a folder may be shown to this user (rules, dotfiles, temp); a resolved
   * folder's children are judged as spelled and at the folder's real location.
   */
  isChildAllowed(folder: string | JudgedFolder, name: string): boolean {
    return this.scope.isChildAllowed(folder, name);
  }

  /** See ScopeResolver.allowsUndottedChildren. */
  get allowsUndottedChildren(): boolean {
    return this.scope.allowsUndottedChildren;
  }

  /**
   * The names of a folder's children this user may see, with what their directory entries say
   * they are, unstat'ed and in directory order: for listings that order the names first and stat
   * them part by part as the reply is written (`statVisible`). `known`: the folder's children as
   * its watch knows them (the search index), used instead of reading the folder.
   */
  async readVisibleNames(
    dir: Resolved & { stat: Stats },
    known?: TypedNames | null,
  ): Promise<TypedNames> {
    const read = known ?? (await mapFsErrors(() => readTypedNames(dir.real)));
    // With no rule, only a name starting with '.' can be hidden (temp names start with one too):
    // a million names are judged by their first unit, not made strings for it.
    const undotted = this.scope.allowsUndottedChildren;
    let kept: number[] | null = null;
    for (let i = 0; i < read.count; i++) {
      const allowed =
        (undotted && read.asciiFirstUnit(i) !== DOT) ||
        this.scope.isChildAllowed(dir, read.name(i));
      // Most users may see every child: the list is then kept as it is, not copied.
      if (!allowed) kept ??= Array.from({ length: i }, (_, k) => k);
      else kept?.push(i);
    }
    // Denied and hidden names are never stat'ed.
    return kept ? read.only(kept) : read;
  }

  private async readChildren(
    dir: Resolved & { stat: Stats },
    options: ListOptions,
  ): Promise<FolderChildren> {
    const names = (await this.readVisibleNames(dir)).names();
    if (options.sorted ?? true) names.sort();
    return this.statVisible(dir, names, options);
  }

  /** `lstat`s of names in a folder, with the first bytes of the files `wantHead` names. */
  private statNames(
    dir: Resolved,
    names: readonly string[],
    options: ListOptions,
  ): Promise<ChildStats> {
    return statChildren(dir.real, names, {
      finder: this.scope.root.findStats,
      wantHead: options.wantHead,
      ...headOptions(options),
    });
  }

  /**
   * Stats names already judged allowed (`readVisibleNames`), in the order given, as
   * `listChildren` does: symlinks resolved and judged, escaping or denied ones left out (not
   * `present`).
   */
  async statVisible(
    dir: Resolved & { stat: Stats },
    allowed: string[],
    options: ListOptions = {},
  ): Promise<FolderChildren> {
    const { headBytes, headMaxSize } = headOptions(options);
    const stats = await this.statNames(dir, allowed, options);
    const children = new FolderChildren(dir, allowed, stats);
    for (let i = 0; i < allowed.length; i++) {
      if ((stats.mode(i) & S_IFMT) !== S_IFLNK) continue; // also skips left-out entries (-1)
      const name = allowed[i]!;
      const link = await this.linkEntry(dir, name, 1);
      if (!link?.linkStat) {
        children.omit(i);
        continue;
      }
      const small = link.stat?.isFile() && link.stat.size <= headMaxSize;
      const head =
        small && options.wantHead?.(name) ? await readFileHead(link.real, headBytes) : undefined;
      children.setLink(i, link.real, link.stat, link.linkStat, head);
    }
    return children;
  }

  /**
   * Every descendant of a folder, depth first in name order, as an async iterator. Denied folders
   * are not descended (unless `prune: false`), symlinked folders are reported but not descended
   * (no loops, no escapes), scope-escaping links are left out. Stops when `signal` aborts.
   */
  async *walk(virtual: string | Resolved, options: WalkOptions = {}): AsyncGenerator<Entry> {
    const dir = await this.scope.stat(virtual);
    if (!dir.stat.isDirectory()) throw errors.badRequest('path is not a directory');
    yield* this.walkFolder(dir, dir.real, 1, options);
  }

  /**
   * `virtualDir`: the folder as spelled and where it really is; children are judged at both (an
   * alias of a folder walks what the folder walks).
   */
  private async *walkFolder(
    virtualDir: JudgedFolder,
    realDir: string,
    depth: number,
    options: WalkOptions,
  ): AsyncGenerator<Entry> {
    const prune = options.prune ?? true;
    if (options.signal?.aborted) return;
    let names: string[];
    try {
      names = (await readdir(realDir)).sort();
    } catch {
      return; // Unreadable folders are skipped.
    }
    for (const name of names) {
      if (options.signal?.aborted) return;
      if (isTempName(name)) continue;
      const childPath = joinVirtual(virtualDir.path, name);
      const allowed = this.scope.isChildAllowed(virtualDir, name, options.rulesOnly);
      if (!allowed && prune) continue;
      const real = path.join(realDir, name);
      const info = await lstatOrNull(real);
      if (!info) continue;
      if (info.isSymbolicLink()) {
        const item = await this.linkEntry(
          { path: virtualDir.path, real: realDir },
          name,
          depth,
          prune,
          options.rulesOnly,
        );
        if (item) yield { ...item, allowed: allowed && item.allowed };
        continue;
      }
      yield {
        name,
        path: childPath,
        real,
        entry: real,
        stat: info,
        isSymlink: false,
        allowed,
        depth,
      };
      if (info.isDirectory()) {
        const folder = { path: childPath, realPath: joinVirtual(virtualDir.realPath, name) };
        yield* this.walkFolder(folder, real, depth + 1, options);
      }
    }
  }

  /** A symlink child as an entry, or null when it escapes the scope (or its target is denied). */
  private async linkEntry(
    dir: { path: string; real: string },
    name: string,
    depth: number,
    prune = true,
    rulesOnly = false,
  ): Promise<Entry | null> {
    const entry = path.join(dir.real, name);
    const childPath = joinVirtual(dir.path, name);
    const linkStat = await lstat(entry).catch(() => null);
    if (!linkStat) return null;
    try {
      const target = await this.scope.followLink(dir.real, name, rulesOnly);
      if (!target.allowed && prune) return null;
      return {
        name,
        path: childPath,
        real: target.real,
        entry,
        stat: target.stat,
        isSymlink: true,
        linkStat,
        allowed: target.allowed,
        depth,
      };
    } catch {
      return null; // Escaping, looping or unreadable links are never shown.
    }
  }

  /**
   * Throws 403 when any descendant of `source` (or its counterpart under `destination`) is denied
   * by a rule: operating on a parent must not bypass a rule on a child (filebrowser #6053). A
   * destination is judged as spelled and at its real location (`entryPath`: where a move lands).
   */
  async assertTreeAllowed(
    source: Resolved,
    destination?: string | { path: string; entryPath: string },
  ): Promise<void> {
    if (!this.scope.hasRules) return;
    if (!source.stat?.isDirectory() || source.isSymlink) return;
    const targets =
      destination === undefined
        ? []
        : typeof destination === 'string'
          ? [destination]
          : [...new Set([destination.path, destination.entryPath])];
    const cut = source.path === '/' ? 0 : source.path.length;
    for await (const item of this.walk(source, { prune: false, rulesOnly: true })) {
      if (!item.allowed) throw errors.forbidden();
      for (const target of targets) {
        const counterpart = target + item.path.slice(cut);
        if (!this.scope.rulesAllow(canonicalPath(counterpart).path)) throw errors.forbidden();
      }
    }
  }
}

/** How many first bytes to read, of files up to which size: 512 of any size unless asked. */
function headOptions(options: ListOptions): { headBytes: number; headMaxSize: number } {
  return {
    headBytes: options.headBytes ?? 512,
    headMaxSize: options.headMaxSize ?? Number.MAX_SAFE_INTEGER,
  };
}
