import path from 'node:path';
import type { Store } from '../../store/store.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { DavLock, DavLocks } from '../../coordination/index.ts';
import { canonicalPath, virtualOfReal } from '../../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../../fs/scoped-fs.ts';
import type { ResourcesService } from '../resources.service.ts';
import { parseIfHeader, submittedTokens, type IfList } from './if-header.ts';
import { locksBelow, locksCovering, unsatisfiedLocks } from './lock-rules.ts';
import { davEtag, type DavEntry } from './properties.ts';
import { errorBody } from './xml.ts';
import type { DavReply, DavRequest } from './dav-types.ts';

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface DavDeps {
  store: Pick<Store, 'davProperties'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * What every WebDAV method shares: the deps, the href and key of a path, the Destination header,
 * and the lock conditions a write must meet (docs/webdav.md).
 */
export class DavCore {
  constructor(
    readonly ctx: DavDeps,
    readonly resources: ResourcesService,
    readonly locks: DavLocks,
  ) {}

  /** The path from the served root that locks and dead properties are keyed by. */
  keyOf(resolved: Resolved): string {
    return virtualOfReal(resolved.real, this.ctx.files.realRoot);
  }

  href(request: DavRequest, virtual: string, isDir: boolean): string {
    const encoded = virtual
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/');
    const trail = isDir && virtual !== '/' ? '/' : '';
    return `${request.base}${encoded}${trail}`;
  }

  /** The href of a lock's root as this user sees it (the request path when outside the view). */
  lockHref(request: DavRequest, fs: ScopedFs, lock: DavLock, fallback: string): string {
    const real = path.join(this.ctx.files.realRoot, lock.path);
    try {
      return this.href(request, fs.virtualOf(real), false);
    } catch {
      return fallback;
    }
  }

  /** A Destination header as a virtual path of this user's view, or a status to answer. */
  destination(request: DavRequest): string | number {
    const header = request.headers.destination;
    if (!header) return 400;
    let pathname: string;
    try {
      const url = new URL(header, `http://${request.host || 'localhost'}`);
      if (/^[a-z][a-z0-9+.-]*:/i.test(header) && url.host !== request.host) return 502;
      pathname = url.pathname;
    } catch {
      return 400;
    }
    const prefix = `${request.base}/`;
    if (pathname !== request.base && !pathname.startsWith(prefix)) return 502;
    try {
      return canonicalPath(decodeURIComponent(pathname.slice(request.base.length)) || '/').path;
    } catch {
      return 400;
    }
  }

  ifLists(request: DavRequest): IfList[] | undefined | 'invalid' {
    const header = request.headers.if;
    if (!header) return undefined;
    return parseIfHeader(header) ?? 'invalid';
  }

  /**
   * The precondition checks of a write: 423 when a lock on what `targets` names is not submitted
   * in the If header, then 412 when the If header does not hold. `deep` targets include their
   * descendants' locks (DELETE and MOVE of a folder); `parent` adds the membership of the folder.
   */
  async checkWrite(
    request: DavRequest,
    fs: ScopedFs,
    targets: { resolved: Resolved; deep?: boolean; parent?: boolean }[],
  ): Promise<DavReply | undefined> {
    const lists = this.ifLists(request);
    if (lists === 'invalid') return { status: 400 };
    const live = await this.locks.live();
    const relevant: DavLock[] = [];
    for (const target of targets) {
      const key = this.keyOf(target.resolved);
      relevant.push(...locksCovering(live, key));
      if (target.deep) relevant.push(...locksBelow(live, key));
      if (target.parent && target.resolved.path !== '/') {
        // A depth-0 lock on the folder protects its membership; deep ones are already covering.
        const parentKey = virtualOfReal(
          path.dirname(target.resolved.real),
          this.ctx.files.realRoot,
        );
        relevant.push(...live.filter((l) => l.path === parentKey && !l.deep));
      }
    }
    const unique = [...new Map(relevant.map((l) => [l.token, l])).values()];
    const left = unsatisfiedLocks(unique, submittedTokens(lists), request.user.id);
    if (left.length > 0) {
      return { status: 423, xml: errorBody('lock-token-submitted') };
    }
    if (lists && !(await this.evaluateIf(request, fs, lists, live))) return { status: 412 };
    return undefined;
  }

  /** Whether any list of the If header holds (RFC 4918 section 10.4). */
  async evaluateIf(
    request: DavRequest,
    fs: ScopedFs,
    lists: IfList[],
    live: DavLock[],
  ): Promise<boolean> {
    for (const list of lists) {
      let virtual = request.path;
      if (list.resource !== undefined) {
        const tagged = this.destination({ ...request, headers: { destination: list.resource } });
        if (typeof tagged === 'number') continue;
        virtual = tagged;
      }
      if (await fs.isDenied(virtual)) continue;
      const resolved = await fs.resolve(virtual);
      const key = this.keyOf(resolved);
      const covering = locksCovering(live, key);
      const etag = resolved.stat ? davEtag(resolved.stat) : undefined;
      const holds = list.conditions.every((condition) => {
        const matches =
          condition.token !== undefined
            ? covering.some((l) => l.token === condition.token)
            : etag !== undefined && condition.etag === etag;
        return condition.not ? !matches : matches;
      });
      if (holds) return true;
    }
    return false;
  }

  /** Locks end with what they lock: after a delete or a move away. */
  async forgetLocks(key: string): Promise<void> {
    const live = await this.locks.live();
    const gone = live.filter((l) => l.path === key || locksBelow([l], key).length > 0);
    await this.locks.remove(gone.map((l) => l.token));
  }

  async entryOf(
    request: DavRequest,
    fs: ScopedFs,
    target: { path: string; real: string; name: string; stat: DavEntry['stat'] },
    live: DavLock[],
  ): Promise<DavEntry> {
    const key = virtualOfReal(target.real, this.ctx.files.realRoot);
    return {
      href: this.href(request, target.path, target.stat.isDirectory()),
      name: target.name,
      stat: target.stat,
      locks: locksCovering(live, key),
    };
  }
}
