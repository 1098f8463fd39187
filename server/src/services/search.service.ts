import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import type { NameIndex } from '../tree/index/name-index.ts';
import type { FastifyBaseLogger } from 'fastify';
import { errors } from '../errors.ts';
import { joinVirtual } from '../fs/canonical-path.ts';
import type { NameTable } from '../tree/index/name-table.ts';
import { matchesTerms, matchesType, parseQuery, type NameQuery } from '../tree/index/name-query.ts';
import { searchTable } from '../tree/index/table-search.ts';
import { ScopedFs, type Resolved } from '../fs/scoped-fs.ts';
import type { UserRecord } from '../store/users.repo.ts';

/** Lines gathered before a chunk is written, so a broad search is not one write per line. */
const LINES_PER_CHUNK = 64;
/** A scan holds the event loop at most about this long before letting other requests in. */
const PAUSE_EVERY_MS = 10;

/** One NDJSON line: the path relative to the searched folder. */
function line(relative: string, isDir: boolean): string {
  return `${JSON.stringify({ dir: isDir, path: relative })}\n`;
}

/** The path below the searched folder, without a leading slash. */
function relativeTo(dir: Resolved, virtual: string): string {
  return virtual.slice(dir.path === '/' ? 1 : dir.path.length + 1);
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface SearchDeps {
  files: FileRoot;
  settings: SettingsRepo;
  search: NameIndex;
  log: FastifyBaseLogger;
}

/**
 * Search (docs/search.md): answers from the name index, filtered per user
 * through ScopedFs exactly as browsing filters (rules, hideDotfiles and temp names on the entry and
 * every folder above it up to the searched one, symlinks only when their target stays in scope),
 * or by walking the folder while the index is not built yet.
 */
export class SearchService {
  constructor(private readonly ctx: SearchDeps) {}

  /**
   * Checks the folder (403, 404, 400 for a file) before anything is sent, then returns the result
   * lines as chunks. Closing the iterator (the client went away) stops the search.
   */
  async search(
    user: UserRecord,
    rawDir: string,
    text: string,
    signal: AbortSignal,
  ): Promise<AsyncGenerator<string>> {
    const fs = await ScopedFs.forUser(this.ctx, user);
    const dir = await fs.stat(rawDir);
    if (!dir.stat.isDirectory()) throw errors.badRequest('path is not a directory');
    const query = parseQuery(text);
    const own = this.searchIn(fs, dir, dir, query, signal);
    if (dir.path !== '/' || fs.isInGrant(dir) || (await fs.mountList()).length === 0) return own;
    return this.withGrants(own, fs, dir, query, signal);
  }

  /** Results under `dir` in one view, relative to `base` (the searched folder). */
  private searchIn(
    fs: ScopedFs,
    dir: Resolved,
    base: Resolved,
    query: NameQuery,
    signal: AbortSignal,
  ): AsyncGenerator<string> {
    const index = this.ctx.search;
    const table = index.current;
    const dirId = table ? index.idOf(dir.real) : -1;
    if (!table || dirId < 0 || !table.isDir(dirId)) {
      this.ctx.log.info(
        { ready: table !== null },
        'search index not ready for this folder; searching by walking it',
      );
      return walkResults(fs, dir, base, query, signal);
    }
    return indexResults(fs, table, dirId, dir, base, query);
  }

  /**
   * A search of the top of a view: the user's own files, then each grant searched through its own
   * view (its top too, when its name matches), as browsing shows them (docs/teams.md).
   */
  private async *withGrants(
    own: AsyncGenerator<string>,
    fs: ScopedFs,
    root: Resolved,
    query: NameQuery,
    signal: AbortSignal,
  ): AsyncGenerator<string> {
    yield* own;
    for (const mount of await fs.mountList()) {
      signal.throwIfAborted();
      const view = await fs.viewOf(mount.path);
      const top = view && (await view.stat(mount.path).catch(() => null));
      if (!view || !top) continue;
      const isDir = top.stat.isDirectory();
      if (matchesTerms(query, top.name) && matchesType(query, () => top.name, isDir)) {
        yield line(relativeTo(root, top.path), isDir);
      }
      if (isDir) yield* this.searchIn(view, top, root, query, signal);
    }
  }
}

async function* indexResults(
  fs: ScopedFs,
  table: NameTable,
  dirId: number,
  dir: Resolved,
  base: Resolved,
  query: NameQuery,
): AsyncGenerator<string> {
  // Each folder met: its path as the search spells it (below the searched folder, maybe an alias)
  // and where it really is, or null when it (or a folder above it) is hidden from the user. Both
  // are judged, so searching an alias finds what searching the real folder finds.
  type Met = { shown: string; real: string } | null;
  const folders = new Map<number, Met>([[dirId, { shown: dir.path, real: dir.realPath }]]);
  const allowed = (met: Met, name: string): Met => {
    if (met === null) return null;
    const shown = joinVirtual(met.shown, name);
    const real = joinVirtual(met.real, name);
    if (!fs.isEntryAllowed(shown) || (real !== shown && !fs.isEntryAllowed(real))) return null;
    return { shown, real };
  };
  const folderPath = (id: number): Met => {
    const known = folders.get(id);
    if (known !== undefined) return known;
    const met = allowed(folderPath(table.parent[id]!), table.nameOf(id));
    folders.set(id, met);
    return met;
  };
  let chunk = '';
  let lines = 0;
  let lastPause = performance.now();
  for (const batch of searchTable(table, dirId, query)) {
    for (const id of batch) {
      const found = allowed(folderPath(table.parent[id]!), table.nameOf(id));
      if (found === null) continue;
      const virtual = found.shown;
      let isDir = table.isDir(id);
      if (table.isLink(id)) {
        // A link is shown only when ScopedFs would open it: target inside the scope and allowed.
        const target = await fs.resolve(virtual).catch(() => null);
        if (!target?.stat) continue;
        isDir = target.stat.isDirectory();
      }
      chunk += line(relativeTo(base, virtual), isDir);
      if (++lines >= LINES_PER_CHUNK) {
        yield chunk;
        chunk = '';
        lines = 0;
      }
    }
    // Results found so far go out now; a long scan lets other requests in every few milliseconds.
    if (chunk !== '') {
      yield chunk;
      chunk = '';
      lines = 0;
    }
    if (performance.now() - lastPause > PAUSE_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastPause = performance.now();
    }
  }
}

/** The fallback while the index is built: ScopedFs's walk, results in walk order. */
async function* walkResults(
  fs: ScopedFs,
  dir: Resolved,
  base: Resolved,
  query: NameQuery,
  signal: AbortSignal,
): AsyncGenerator<string> {
  for await (const entry of fs.walk(dir, { signal })) {
    const isDir = entry.stat?.isDirectory() ?? false;
    if (!matchesTerms(query, entry.name) || !matchesType(query, () => entry.name, isDir)) continue;
    yield line(relativeTo(base, entry.path), isDir);
  }
}
