/**
 * The security boundary of the file-system layer: every user path becomes a real path here and
 * nowhere else. What it guarantees, for every path a ScopedFs part acts on:
 *
 * - the virtual path is decoded and normalised once (canonicalPath): `..` cannot climb above the
 *   scope, NUL bytes are refused, an absolute or drive-lettered path is read relative to the scope;
 * - every component is followed one symlink hop at a time (followSegments) and a path whose real
 *   location, or any hop on the way, leaves the user's scope is refused (403), dangling links and
 *   not-yet-existing paths included;
 * - global then user rules (last match wins), hideDotfiles and the temp-file names are applied to the
 *   virtual path as requested AND to the item's real location inside the scope (the virtual path of
 *   its real parent folder, every symlink on the way resolved, joined with its name), and a
 *   symlink's target is judged again by its own virtual path: an alias (`loop -> .`,
 *   `current -> releases/v2`) reaches nothing the direct path is refused, so a link is never a way
 *   around a rule;
 * - what is blocked does not exist for the user: it is left out of listings and walks, and any
 *   direct use of it is refused.
 *
 * The other parts (listing, reads, writes, usage) only ever take a Resolved issued here, or re-check
 * scope and rules themselves where they must act on a path a walk reported (see openKnown).
 */
import type { Stats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Rule } from '@cabinet/protocol';
import { errors } from '../errors.ts';
import {
  canonicalPath,
  isRealInside,
  joinVirtual,
  virtualBaseName,
  virtualOfReal,
} from './canonical-path.ts';
import type { FileRoot } from './file-root.ts';
import { lstatOrNull } from './fs-errors.ts';
import { followSegments, resolveFolder, type RealTarget } from './real-path.ts';
import { RuleSet } from './rules.ts';
import { isTempName } from './temp-files.ts';

/**
 * The reason of the 403 a rule (or hideDotfiles) verdict throws, as opposed to a path leaving the
 * scope: WebDAV answers a denied path 404, as if it did not exist, whichever way it was spelled.
 */
export const DENIED_BY_RULES = 'denied by rules';

/** A virtual path resolved inside one user's scope. Only a ScopeResolver creates these. */
export interface Resolved {
  /** Canonical virtual path: leading `/`, no trailing `/` (root is `/`). */
  readonly path: string;
  /** The request ended in `/`. */
  readonly trailingSlash: boolean;
  /** Base name (`""` for the root). */
  readonly name: string;
  /** Real path with every symlink followed (where content is read and written). */
  readonly real: string;
  /** Real path of the folder entry itself (the link, not its target): what delete and move act on. */
  readonly entry: string;
  /** Stat of the target, or null when it does not exist (or is a dangling link). */
  readonly stat: Stats | null;
  /** The entry is a symlink (its target is inside the scope and allowed). */
  readonly isSymlink: boolean;
  /**
   * Virtual path of `entry`: where the item really sits in the scope, every symlink above it
   * resolved. Equals `path` unless the path was spelled through an alias.
   */
  readonly entryPath: string;
  /** Virtual path of `real` (a symlink's target; otherwise `entryPath`). Children are judged here. */
  readonly realPath: string;
}

/** A folder whose children are judged: as spelled (`path`) and where it really is (`realPath`). */
export interface JudgedFolder {
  readonly path: string;
  readonly realPath: string;
}

export interface ScopedFsOptions {
  /** The user's stored scope (`.`, `/`, `/users/alice`), confined lexically under the root. */
  scope: string;
  /** Global rules followed by the user's rules: the last match wins. */
  rules: readonly Rule[];
  /** Hide (and refuse) entries whose own base name starts with a dot. */
  hideDotfiles: boolean;
  /**
   * Virtual prefix put before every path when rules are evaluated. Public shares re-root a ScopedFs
   * at the shared folder yet must apply the owner's rules to owner-original paths.
   */
  rulePrefix?: string;
  /**
   * A grant mounted in another user's view (docs/teams.md): paths given to and issued by this
   * resolver are the view's (`outer`, `/Design/...`); its own scope is reached at `inner` (`/` for
   * a folder, `/report.pdf` for one shared file). Anything not at or under `outer` is refused, and
   * nothing inside the scope outside `inner` is reachable.
   */
  view?: { outer: string; inner: string };
  /**
   * Top-level names (folded to lower case) this view refuses: where the mounted grants sit. The
   * grants answer there, never the user's own scope (docs/teams.md).
   */
  reserved?: ReadonlySet<string>;
  /**
   * In a mounted grant: the viewing user's own rules (global then theirs) and hideDotfiles, judged
   * on the view's paths, on top of the owner's rules judged on the owner's paths.
   */
  viewRules?: {
    rules: readonly Rule[];
    hideDotfiles: boolean;
    /** The view path this scope's `/` has for the viewing user (a grant's folder re-rooted). */
    prefix?: string;
  };
}

/** Where a symlink child leads, and whether the rules allow its target's own virtual path. */
export interface LinkTarget extends RealTarget {
  /** The target's virtual path inside the scope. */
  virtual: string;
  allowed: boolean;
}

/** One user's scope and rules: resolves virtual paths and judges them (see the header). */
export class ScopeResolver {
  private readonly ruleSet: RuleSet;
  private readonly viewRuleSet: RuleSet | null;
  private readonly issued = new WeakSet<Resolved>();

  private constructor(
    /** The tree this view belongs to. */
    readonly root: FileRoot,
    /** Real path of the user's scope folder (may not exist yet). */
    readonly scopeReal: string,
    private readonly options: ScopedFsOptions,
    /** The rules compiled already, for these very options (`withReserved`). */
    compiled?: { ruleSet: RuleSet; viewRuleSet: RuleSet | null },
  ) {
    this.ruleSet = compiled?.ruleSet ?? new RuleSet(options.rules, root.caseInsensitive);
    this.viewRuleSet =
      compiled?.viewRuleSet ??
      (options.viewRules ? new RuleSet(options.viewRules.rules, root.caseInsensitive) : null);
  }

  /**
   * A resolver for a scope whose real location the caller already knows, reached through no
   * symlink (a cached listing of its parent vouches for it: services/resources/granted-tops.ts).
   */
  static at(root: FileRoot, scopeReal: string, options: ScopedFsOptions): ScopeResolver {
    return new ScopeResolver(root, scopeReal, options);
  }

  /** The same scope refusing `reserved` top-level names (where a view's grants sit). */
  withReserved(reserved: ReadonlySet<string>): ScopeResolver {
    return new ScopeResolver(
      this.root,
      this.scopeReal,
      { ...this.options, reserved },
      { ruleSet: this.ruleSet, viewRuleSet: this.viewRuleSet },
    );
  }

  /** Where a scope is if it is reached through no symlink: its own real path then. */
  static lexicalOf(root: FileRoot, scope: string): string {
    return path.join(root.realRoot, ...canonicalPath(scope || '/').segments);
  }

  /** The real path of a scope folder when it is reached through no symlink, else null. */
  static async directPath(root: FileRoot, scope: string): Promise<string | null> {
    const lexical = ScopeResolver.lexicalOf(root, scope);
    return (await realpath(lexical).catch(() => null)) === lexical ? lexical : null;
  }

  /** A resolver for a scope under the root (403 when the scope itself leads out of the root). */
  static async open(root: FileRoot, options: ScopedFsOptions): Promise<ScopeResolver> {
    const scope = canonicalPath(options.scope || '/');
    // A scope reached through no symlink (the usual case, and every team folder: they are stored
    // where they really are) is its own real path: one realpath(3) says so, in one trip to the
    // thread pool, where following it hop by hop costs one lstat per segment.
    const lexical = path.join(root.realRoot, ...scope.segments);
    if ((await realpath(lexical).catch(() => null)) === lexical) {
      return new ScopeResolver(root, lexical, options);
    }
    // The scope is confined lexically first, then by its real location: a scope folder that is a
    // symlink out of the root is refused rather than silently served.
    const target = await followSegments(root.realRoot, scope.segments, root.realRoot);
    return new ScopeResolver(root, target.real, options);
  }

  /** True when any global or user rule exists. */
  get hasRules(): boolean {
    return !this.ruleSet.isEmpty || (this.viewRuleSet !== null && !this.viewRuleSet.isEmpty);
  }

  /** True when a rule or hideDotfiles can deny a path (temp names aside). */
  get judgesPaths(): boolean {
    return (
      this.hasRules || this.options.hideDotfiles || this.options.viewRules?.hideDotfiles === true
    );
  }

  /** Whether rules (and hideDotfiles) allow a virtual path; never touches the disk. */
  isAllowed(virtual: string, options: { rulesOnly?: boolean } = {}): boolean {
    return this.isCanonicalAllowed(canonicalPath(virtual).path, options.rulesOnly);
  }

  /** isAllowed for a path already canonical (children built from a canonical folder and a name). */
  isCanonicalAllowed(canonical: string, rulesOnly = false): boolean {
    if (this.isReserved(canonical)) return false;
    const inner = this.innerOf(canonical);
    if (inner === null) return false;
    const name = virtualBaseName(inner);
    if (isTempName(name)) return false;
    if (!rulesOnly && this.options.hideDotfiles && name.startsWith('.')) return false;
    if (!this.viewAllows(canonical, rulesOnly)) return false;
    return this.ruleSet.allows(this.rulePath(inner));
  }

  /** The viewing user's own rules on a view path (only in a mounted grant). */
  private viewAllows(canonical: string, rulesOnly: boolean): boolean {
    const view = this.options.viewRules;
    if (!view || !this.viewRuleSet) return true;
    const at = !view.prefix || view.prefix === '/' ? canonical : prefixed(view.prefix, canonical);
    if (!rulesOnly && view.hideDotfiles && virtualBaseName(at).startsWith('.')) return false;
    return this.viewRuleSet.allows(at);
  }

  /**
   * The options of a view re-rooted at one of its folders (a public link to a folder of a grant,
   * docs/teams.md): the folder's real place is the scope, and every rule still judges the path it
   * judged here (the owner's, through `rulePrefix`; the viewing user's, through `viewRules.prefix`).
   */
  optionsAt(folder: Resolved): ScopedFsOptions {
    const inner = this.innerOf(folder.realPath);
    if (inner === null) throw errors.forbidden();
    const { view: _view, reserved: _reserved, viewRules, ...kept } = this.options;
    return {
      ...kept,
      scope: virtualOfReal(folder.real, this.root.realRoot),
      rulePrefix: this.rulePath(inner),
      ...(viewRules && { viewRules: { ...viewRules, prefix: folder.realPath } }),
    };
  }

  /** A view path (canonical) as this scope's own path, or null when it is not this view's. */
  innerOf(canonical: string): string | null {
    const view = this.options.view;
    if (!view) return canonical;
    if (canonical === view.outer) return view.inner;
    if (!canonical.startsWith(view.outer === '/' ? '/' : `${view.outer}/`)) return null;
    // A shared file has no children: only the file itself is reachable.
    if (view.inner !== '/') return null;
    return canonical.slice(view.outer.length);
  }

  /** This scope's own path as a view path, or null when the view does not show it. */
  outerOf(inner: string): string | null {
    const view = this.options.view;
    if (!view) return inner;
    if (inner === view.inner) return view.outer;
    if (view.inner !== '/') return null;
    return view.outer === '/' ? inner : `${view.outer}${inner}`;
  }

  /** Whether a canonical path's first segment is one of the names this view refuses. */
  private isReserved(canonical: string): boolean {
    const reserved = this.options.reserved;
    if (!reserved || reserved.size === 0 || canonical === '/') return false;
    const end = canonical.indexOf('/', 1);
    const top = end < 0 ? canonical.slice(1) : canonical.slice(1, end);
    // Folded as ViewMounts.reserved folds them: only where the file system ignores case.
    return reserved.has(this.root.caseInsensitive ? top.toLowerCase() : top);
  }

  /**
   * Whether every child whose name does not start with '.' is allowed: no rules (temp names and
   * hidden dotfiles both start with one), so a big folder's names are judged by their first unit.
   */
  get allowsUndottedChildren(): boolean {
    // A name reserved for a grant is never on disk (grants are named around the user's own
    // content), so listings need not judge it.
    return this.ruleSet.isEmpty && !this.options.view && !this.options.viewRules;
  }

  /**
   * isCanonicalAllowed for a child of a folder, building its path only for rules. A resolved
   * folder's child is judged both as spelled and at the folder's real location, so that listing
   * an alias of a folder shows exactly what listing the folder shows.
   */
  isChildAllowed(folder: string | JudgedFolder, name: string, rulesOnly = false): boolean {
    if (isTempName(name)) return false;
    if (!rulesOnly && this.options.hideDotfiles && name.startsWith('.')) return false;
    if (this.options.view || this.options.viewRules) {
      // A mounted grant's children (or a re-rooted grant's: the viewing user's rules) are judged
      // path by path (its paths are the view's).
      const spelled = typeof folder === 'string' ? folder : folder.path;
      if (!this.isCanonicalAllowed(joinVirtual(spelled, name), rulesOnly)) return false;
      return (
        typeof folder === 'string' ||
        folder.realPath === folder.path ||
        this.isCanonicalAllowed(joinVirtual(folder.realPath, name), rulesOnly)
      );
    }
    if (this.ruleSet.isEmpty) return true;
    if (typeof folder === 'string')
      return this.ruleSet.allows(this.rulePath(joinVirtual(folder, name)));
    if (!this.ruleSet.allows(this.rulePath(joinVirtual(folder.path, name)))) return false;
    return (
      folder.realPath === folder.path ||
      this.ruleSet.allows(this.rulePath(joinVirtual(folder.realPath, name)))
    );
  }

  /** Whether rules alone allow a canonical virtual path (copy plans, descendant checks). */
  rulesAllow(canonical: string): boolean {
    if (this.isReserved(canonical)) return false;
    const inner = this.innerOf(canonical);
    return (
      inner !== null &&
      this.viewAllows(canonical, true) &&
      this.ruleSet.allows(this.rulePath(inner))
    );
  }

  /**
   * Canonicalises, rule-checks and resolves a virtual path. Missing paths resolve (stat null) so
   * writes know where they would land; 403 for denied paths and for anything landing outside the
   * scope, including through a dangling symlink or a symlinked parent folder.
   */
  async resolve(virtual: string | Resolved): Promise<Resolved> {
    if (typeof virtual !== 'string') {
      // A Resolved this resolver issued is trusted as is; any other is judged by its path alone.
      if (this.issued.has(virtual)) return virtual;
      virtual = virtual.path;
    }
    const canonical = canonicalPath(virtual);
    if (!this.isCanonicalAllowed(canonical.path)) throw errors.forbidden(DENIED_BY_RULES);
    const innerPath = this.innerOf(canonical.path);
    if (innerPath === null) throw errors.forbidden();
    const segments = innerPath === '/' ? [] : innerPath.slice(1).split('/');
    let resolved: Resolved;
    if (segments.length === 0) {
      const info = await lstatOrNull(this.scopeReal).catch(() => null);
      resolved = {
        path: canonical.path,
        trailingSlash: canonical.path === '/' ? false : canonical.trailingSlash,
        name: virtualBaseName(canonical.path),
        real: this.scopeReal,
        entry: this.scopeReal,
        stat: info,
        isSymlink: false,
        entryPath: canonical.path,
        realPath: canonical.path,
      };
    } else {
      const name = segments[segments.length - 1]!;
      const parent = await resolveFolder(this.scopeReal, segments.slice(0, -1), this.scopeReal);
      // Judged where it really is too: `/loop/secret` with `loop -> .` is `/secret`. Before the
      // folder's type, as for a direct path (rules first, then the disk).
      const entryPath = this.outerOf(joinVirtual(virtualOfReal(parent.real, this.scopeReal), name));
      if (entryPath === null) throw errors.forbidden();
      if (entryPath !== canonical.path && !this.isCanonicalAllowed(entryPath)) {
        throw errors.forbidden(DENIED_BY_RULES);
      }
      if (parent.stat && !parent.stat.isDirectory()) throw errors.notFound();
      const entry = path.join(parent.real, name);
      const base = {
        path: canonical.path,
        trailingSlash: canonical.trailingSlash,
        name: virtualBaseName(canonical.path),
        entry,
        entryPath,
      };
      const info = parent.stat ? await lstatOrNull(entry) : null;
      if (info?.isSymbolicLink()) {
        const target = await this.followLink(parent.real, name);
        if (!target.allowed) throw errors.forbidden(DENIED_BY_RULES);
        resolved = {
          ...base,
          real: target.real,
          stat: target.stat,
          isSymlink: true,
          realPath: target.virtual,
        };
      } else {
        resolved = { ...base, real: entry, stat: info, isSymlink: false, realPath: entryPath };
      }
    }
    this.issued.add(resolved);
    return resolved;
  }

  /** Resolves a path that must exist (404 otherwise). */
  async stat(virtual: string | Resolved): Promise<Resolved & { stat: Stats }> {
    const resolved = await this.resolve(virtual);
    if (!resolved.stat) throw errors.notFound();
    return resolved as Resolved & { stat: Stats };
  }

  /**
   * Follows the symlink `name` in the real folder `folderReal`: 403 when it leads out of the scope
   * or loops. A link must not be a way around a rule: its target is judged by its own virtual path,
   * with hideDotfiles and temp names as the target itself would be (`pub -> .hidden` is hidden).
   */
  async followLink(folderReal: string, name: string, rulesOnly = false): Promise<LinkTarget> {
    const target = await followSegments(folderReal, [name], this.scopeReal);
    // In a mounted grant, a target the view does not show (a shared file's sibling) is refused.
    const virtual = this.outerOf(virtualOfReal(target.real, this.scopeReal));
    if (virtual === null) return { ...target, virtual: '/', allowed: false };
    return { ...target, virtual, allowed: this.isCanonicalAllowed(virtual, rulesOnly) };
  }

  /** Throws 403 unless a real path lies inside the scope (where writes may create folders). */
  assertRealInside(real: string): void {
    if (!isRealInside(real, this.scopeReal)) throw errors.forbidden();
  }

  /** Virtual path of a real path inside this scope (for entries found by walking). */
  virtualOf(real: string): string {
    this.assertRealInside(real);
    const outer = this.outerOf(virtualOfReal(real, this.scopeReal));
    if (outer === null) throw errors.forbidden();
    return outer;
  }

  /** The view place of a mounted grant (undefined for a user's own scope). */
  get view(): { outer: string; inner: string } | undefined {
    return this.options.view;
  }

  /** The owner's path of this view's top, when the owner's rules judge it (a grant's view). */
  get rulePrefix(): string | undefined {
    return this.options.rulePrefix;
  }

  private rulePath(canonical: string): string {
    const prefix = this.options.rulePrefix;
    if (!prefix || prefix === '/') return canonical;
    return canonical === '/' ? prefix : `${prefix}${canonical}`;
  }
}

/** A canonical path below a prefix (`/a` and `/b` give `/a/b`; `/` gives the prefix). */
function prefixed(prefix: string, canonical: string): string {
  return canonical === '/' ? prefix : `${prefix}${canonical}`;
}
