import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import type { DavLock, DavLocks } from '../coordination/index.ts';
import { davReplyOf } from './dav/dav-errors.ts';
import { canonicalPath, virtualOfReal, virtualParent } from '../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../fs/scoped-fs.ts';
import type { CredentialUser } from './app-passwords.service.ts';
import type { FileToSend } from './file-to-send.ts';
import { canCreate, canDownload, canModify } from './permissions.ts';
import type { ResourcesService } from './resources.service.ts';
import { fileDownload } from './raw.service.ts';
import { parseIfHeader, submittedTokens, type IfList } from './dav/if-header.ts';
import {
  conflictingLocks,
  locksBelow,
  locksCovering,
  lockTimeout,
  unsatisfiedLocks,
} from './dav/lock-rules.ts';
import {
  activeLock,
  contentTypeOf,
  davEtag,
  isLive,
  liveNames,
  liveValue,
  type DavEntry,
} from './dav/properties.ts';
import {
  childElements,
  errorBody,
  escapeXml,
  isDav,
  keyOf,
  multistatus,
  nameOf,
  nameOfKey,
  parseXml,
  propElement,
  serialize,
  statusLine,
  type PropName,
} from './dav/xml.ts';

/** One WebDAV request as the route hands it over. */
export interface DavRequest {
  user: CredentialUser;
  method: string;
  /** The decoded path below /dav/ (`/docs/a.txt`, `/` for the root). */
  path: string;
  /** The href prefix of this server's WebDAV root: base URL plus `/dav`. */
  base: string;
  /** The Host header, to tell a Destination on this server from one elsewhere. */
  host: string;
  headers: {
    depth?: string;
    destination?: string;
    overwrite?: string;
    if?: string;
    timeout?: string;
    lockToken?: string;
  };
  /** The XML body (PROPFIND, PROPPATCH, LOCK), "" when none; MKCOL refuses any body. */
  body: string;
  /** PUT: the request body. */
  stream?: Readable;
}

/** What the route sends: a status with optional headers and XML, or a file. */
export type DavReply =
  | {
      status: number;
      headers?: Record<string, string>;
      xml?: string;
      /** The reason of a refusal the client should read (a quota's 507 names usage and quota). */
      reason?: string;
      /** The destination an Overwrite: T replaced (recorded in the audit log as `file.replace`). */
      replaced?: string;
    }
  | { status: 200; file: FileToSend };

export const DAV_METHODS = [
  'OPTIONS',
  'PROPFIND',
  'PROPPATCH',
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
] as const;

const XML_LIMIT_PROPS = 10_000;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface DavDeps {
  store: Pick<Store, 'davProperties'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * WebDAV class 1 and 2 over ScopedFs (docs/webdav.md): each user's scope as the web app shows it,
 * with the same permissions, rules and hooks. Writes go through the files service (uploads,
 * folders, copies, moves and deletes with their hooks); locks live behind a coordination seam and
 * dead properties in the database, both keyed by the path from the served root so that every
 * user's view of a file sees the same ones. A path the rules hide is a 404, as if it did not exist.
 */
export class DavService {
  constructor(
    private readonly ctx: DavDeps,
    private readonly resources: ResourcesService,
    private readonly locks: DavLocks,
  ) {}

  async handle(request: DavRequest): Promise<DavReply> {
    const fs = await ScopedFs.forUser(this.ctx, request.user);
    // A denied path does not exist on WebDAV, spelled directly or through an alias.
    if (await fs.isDenied(request.path)) return { status: 404 };
    try {
      switch (request.method) {
        case 'OPTIONS':
          return this.options();
        case 'PROPFIND':
          return await this.propfind(request, fs);
        case 'PROPPATCH':
          return await this.proppatch(request, fs);
        case 'GET':
        case 'HEAD':
          return await this.get(request, fs);
        case 'PUT':
          return await this.put(request, fs);
        case 'DELETE':
          return await this.remove(request, fs);
        case 'MKCOL':
          return await this.mkcol(request, fs);
        case 'COPY':
        case 'MOVE':
          return await this.transfer(request, fs);
        case 'LOCK':
          return await this.lock(request, fs);
        case 'UNLOCK':
          return await this.unlock(request, fs);
        default:
          return { status: 405, headers: { allow: DAV_METHODS.join(', ') } };
      }
    } catch (error) {
      const reply = davReplyOf(error);
      if (reply) return reply;
      throw error;
    }
  }

  private options(): DavReply {
    return {
      status: 200,
      headers: { dav: '1, 2', allow: DAV_METHODS.join(', '), 'ms-author-via': 'DAV' },
    };
  }

  // ---- paths, hrefs and keys ----

  /** The path from the served root that locks and dead properties are keyed by. */
  private keyOf(resolved: Resolved): string {
    return virtualOfReal(resolved.real, this.ctx.files.realRoot);
  }

  private href(request: DavRequest, virtual: string, isDir: boolean): string {
    const encoded = virtual
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/');
    const trail = isDir && virtual !== '/' ? '/' : '';
    return `${request.base}${encoded}${trail}`;
  }

  /** The href of a lock's root as this user sees it (the request path when outside the view). */
  private lockHref(request: DavRequest, fs: ScopedFs, lock: DavLock, fallback: string): string {
    const real = path.join(this.ctx.files.realRoot, lock.path);
    try {
      return this.href(request, fs.virtualOf(real), false);
    } catch {
      return fallback;
    }
  }

  /** A Destination header as a virtual path of this user's view, or a status to answer. */
  private destination(request: DavRequest): string | number {
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

  // ---- locks and conditions ----

  private ifLists(request: DavRequest): IfList[] | undefined | 'invalid' {
    const header = request.headers.if;
    if (!header) return undefined;
    return parseIfHeader(header) ?? 'invalid';
  }

  /**
   * The precondition checks of a write: 423 when a lock on what `targets` names is not submitted
   * in the If header, then 412 when the If header does not hold. `deep` targets include their
   * descendants' locks (DELETE and MOVE of a folder); `parent` adds the membership of the folder.
   */
  private async checkWrite(
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
  private async evaluateIf(
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
  private async forgetLocks(key: string): Promise<void> {
    const live = await this.locks.live();
    const gone = live.filter((l) => l.path === key || locksBelow([l], key).length > 0);
    await this.locks.remove(gone.map((l) => l.token));
  }

  // ---- PROPFIND and PROPPATCH ----

  private async entryOf(
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

  private async propfind(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const depth = (request.headers.depth ?? 'infinity').toLowerCase();
    if (depth === 'infinity') return { status: 403, xml: errorBody('propfind-finite-depth') };
    if (depth !== '0' && depth !== '1') return { status: 400 };
    let mode: 'allprop' | 'propname' | PropName[] = 'allprop';
    if (request.body.trim() !== '') {
      const root = parseXml(request.body);
      if (!isDav(root, 'propfind')) return { status: 400 };
      const [choice] = childElements(root);
      if (!choice) return { status: 400 };
      if (isDav(choice, 'propname')) mode = 'propname';
      else if (isDav(choice, 'prop'))
        mode = childElements(choice).map(nameOf).slice(0, XML_LIMIT_PROPS);
      else if (!isDav(choice, 'allprop')) return { status: 400 };
    }
    const target = await fs.stat(request.path);
    const live = await this.locks.live();
    const entries: { entry: DavEntry; key: string }[] = [];
    const add = async (item: {
      path: string;
      real: string;
      name: string;
      stat: DavEntry['stat'];
    }) =>
      entries.push({
        entry: await this.entryOf(request, fs, item, live),
        key: virtualOfReal(item.real, this.ctx.files.realRoot),
      });
    await add({ ...target, name: target.name });
    if (depth === '1' && target.stat.isDirectory()) {
      const { entries: children } = await fs.list(target);
      for (const child of children) {
        if (!child.stat) continue; // a dangling link has nothing to describe
        await add({ path: child.path, real: child.real, name: child.name, stat: child.stat });
      }
    }
    const responses: string[] = [];
    for (const { entry, key } of entries) {
      const dead = await this.ctx.store.davProperties.list(key);
      responses.push(this.propfindResponse(request, fs, entry, dead, mode));
    }
    return { status: 207, xml: multistatus(responses) };
  }

  private propfindResponse(
    request: DavRequest,
    fs: ScopedFs,
    entry: DavEntry,
    dead: { name: string; xml: string }[],
    mode: 'allprop' | 'propname' | PropName[],
  ): string {
    const lockHref = (lock: DavLock) => this.lockHref(request, fs, lock, entry.href);
    const found: string[] = [];
    const missing: string[] = [];
    if (mode === 'propname') {
      for (const name of liveNames(entry)) found.push(propElement(name));
      for (const prop of dead) found.push(propElement(nameOfKey(prop.name)));
    } else if (mode === 'allprop') {
      for (const name of liveNames(entry)) {
        const value = liveValue(name.local, entry, lockHref);
        if (value !== undefined) found.push(propElement(name, value));
      }
      for (const prop of dead) found.push(prop.xml);
    } else {
      for (const name of mode) {
        const value = isLive(name) ? liveValue(name.local, entry, lockHref) : undefined;
        const stored = isLive(name) ? undefined : dead.find((p) => p.name === keyOf(name));
        if (value !== undefined) found.push(propElement(name, value));
        else if (stored) found.push(stored.xml);
        else missing.push(propElement(name));
      }
    }
    const propstat = (props: string[], status: number) =>
      props.length > 0
        ? `<D:propstat><D:prop>${props.join('')}</D:prop>${statusLine(status)}</D:propstat>`
        : '';
    return (
      `<D:response><D:href>${escapeXml(entry.href)}</D:href>` +
      propstat(found, 200) +
      propstat(missing, 404) +
      (found.length + missing.length === 0
        ? propstat([''], 200).replace('<D:prop></D:prop>', '<D:prop/>')
        : '') +
      `</D:response>`
    );
  }

  private async proppatch(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const target = await fs.stat(request.path);
    const root = parseXml(request.body);
    if (!isDav(root, 'propertyupdate')) return { status: 400 };
    if (!canModify(request.user)) return { status: 403 };
    const blocked = await this.checkWrite(request, fs, [{ resolved: target }]);
    if (blocked) return blocked;
    const changes: (
      { kind: 'set'; name: string; xml: string } | { kind: 'remove'; name: string }
    )[] = [];
    const names: PropName[] = [];
    for (const action of childElements(root)) {
      const set = isDav(action, 'set');
      if (!set && !isDav(action, 'remove')) continue;
      for (const prop of childElements(action).filter((e) => isDav(e, 'prop'))) {
        for (const element of childElements(prop)) {
          const name = nameOf(element);
          names.push(name);
          changes.push(
            set
              ? { kind: 'set', name: keyOf(name), xml: serialize(element) }
              : { kind: 'remove', name: keyOf(name) },
          );
        }
      }
    }
    if (changes.length > XML_LIMIT_PROPS) return { status: 413 };
    const href = this.href(request, target.path, target.stat.isDirectory());
    const protectedNames = names.filter(isLive);
    const propstat = (props: PropName[], status: number, condition?: string) =>
      `<D:propstat><D:prop>${props.map((n) => propElement(n)).join('')}</D:prop>${statusLine(status)}` +
      (condition ? `<D:error><D:${condition}/></D:error>` : '') +
      `</D:propstat>`;
    let body: string;
    if (protectedNames.length > 0) {
      // All or nothing: the live properties are refused, the rest fail with them.
      const others = names.filter((n) => !isLive(n));
      body =
        propstat(protectedNames, 403, 'cannot-modify-protected-property') +
        (others.length > 0 ? propstat(others, 424) : '');
    } else {
      await this.ctx.store.davProperties.apply(this.keyOf(target), changes);
      body = names.length > 0 ? propstat(names, 200) : '';
    }
    return {
      status: 207,
      xml: multistatus([`<D:response><D:href>${escapeXml(href)}</D:href>${body}</D:response>`]),
    };
  }

  // ---- GET, PUT, DELETE, MKCOL ----

  private async get(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const target = await fs.stat(request.path);
    if (!canDownload(request.user)) return { status: 403 };
    if (target.stat.isDirectory()) {
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, xml: '' };
    }
    const file = await fileDownload(fs, target, false);
    return { status: 200, file: { ...file, contentType: contentTypeOf(target.name) } };
  }

  private async put(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const target = await fs.resolve(request.path);
    if (target.path === '/' || target.trailingSlash) return { status: 405 };
    if (target.stat?.isDirectory()) return { status: 405 };
    const parent = await fs.resolve(virtualParent(target.path));
    if (!parent.stat?.isDirectory()) return { status: 409 };
    const blocked = await this.checkWrite(request, fs, [
      { resolved: target, parent: !target.stat },
    ]);
    if (blocked) return blocked;
    const existed = target.stat !== null;
    await this.resources.upload(
      request.user,
      target.path,
      request.stream ?? Readable.from([]),
      true,
    );
    // The validator GET and PROPFIND give, so If headers can name the version just written.
    const written = await fs.stat(target.path);
    return { status: existed ? 204 : 201, headers: { etag: davEtag(written.stat) } };
  }

  private async remove(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const target = await fs.resolve(request.path);
    if (!target.stat && !target.isSymlink) return { status: 404 };
    if (target.path === '/') return { status: 403 };
    const blocked = await this.checkWrite(request, fs, [
      { resolved: target, deep: true, parent: true },
    ]);
    if (blocked) return blocked;
    const key = this.keyOf(target);
    await this.resources.remove(request.user, target.path);
    await this.ctx.store.davProperties.removeTree(key);
    await this.forgetLocks(key);
    return { status: 204 };
  }

  private async mkcol(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    if (request.body !== '') return { status: 415 };
    const target = await fs.resolve(request.path);
    if (target.stat || target.path === '/') return { status: 405 };
    const parent = await fs.resolve(virtualParent(target.path));
    if (!parent.stat?.isDirectory()) return { status: 409 };
    if (!canCreate(request.user)) return { status: 403 };
    const blocked = await this.checkWrite(request, fs, [{ resolved: target, parent: true }]);
    if (blocked) return blocked;
    await this.resources.upload(request.user, `${target.path}/`, Readable.from([]), false);
    return { status: 201 };
  }

  // ---- COPY and MOVE ----

  private async transfer(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const isMove = request.method === 'MOVE';
    const depth = (request.headers.depth ?? 'infinity').toLowerCase();
    if (depth !== 'infinity' && (isMove || depth !== '0')) return { status: 400 };
    const destinationPath = this.destination(request);
    if (typeof destinationPath === 'number') return { status: destinationPath };
    const overwrite = (request.headers.overwrite ?? 'T').toUpperCase();
    if (overwrite !== 'T' && overwrite !== 'F') return { status: 400 };
    const source = await fs.stat(request.path);
    if (source.path === '/' || destinationPath === '/') return { status: 403 };
    if (!fs.isAllowed(destinationPath)) return { status: 403 };
    if (destinationPath === source.path) return { status: 403 };
    if (source.stat.isDirectory() && destinationPath.startsWith(`${source.path}/`)) {
      return { status: 409 };
    }
    const destination = await fs.resolve(destinationPath);
    const parent = await fs.resolve(virtualParent(destination.path));
    if (!parent.stat?.isDirectory()) return { status: 409 };
    const existed = destination.stat !== null;
    if (existed && overwrite === 'F') return { status: 412 };
    const targets: { resolved: Resolved; deep?: boolean; parent?: boolean }[] = [
      { resolved: destination, deep: true, parent: true },
    ];
    if (isMove) targets.push({ resolved: source, deep: true, parent: true });
    const blocked = await this.checkWrite(request, fs, targets);
    if (blocked) return blocked;

    const sourceKey = this.keyOf(source);
    const destinationKey = this.keyOf(destination);
    if (existed) {
      // The quota is judged before the destination goes: a refused overwrite leaves it intact.
      await this.resources.checkTransferRoom(
        request.user,
        source.path,
        destination.path,
        isMove ? 'rename' : 'copy',
      );
      // Overwrite: T replaces the destination as a whole (RFC 4918 9.8.4), through the delete path.
      await this.resources.remove(request.user, destination.path);
      await this.ctx.store.davProperties.removeTree(destinationKey);
      await this.forgetLocks(destinationKey);
    }
    if (!isMove && depth === '0' && source.stat.isDirectory()) {
      await this.resources.upload(request.user, `${destination.path}/`, Readable.from([]), false);
      const own = await this.ctx.store.davProperties.list(sourceKey);
      await this.ctx.store.davProperties.apply(
        destinationKey,
        own.map((p) => ({ kind: 'set' as const, name: p.name, xml: p.xml })),
      );
    } else {
      await this.resources.transfer(request.user, source.path, {
        action: isMove ? 'rename' : 'copy',
        destination: encodeURIComponent(destination.path),
        override: false,
        rename: false,
      });
      await this.ctx.store.davProperties.transferTree(sourceKey, destinationKey, isMove);
      if (isMove) await this.forgetLocks(sourceKey);
    }
    return existed ? { status: 204, replaced: destination.path } : { status: 201 };
  }

  // ---- LOCK and UNLOCK ----

  private async lock(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    let target = await fs.resolve(request.path);
    const timeoutSeconds = lockTimeout(request.headers.timeout);
    if (request.body.trim() === '') return this.refresh(request, fs, target, timeoutSeconds);
    const root = parseXml(request.body);
    if (!isDav(root, 'lockinfo')) return { status: 400 };
    const children = childElements(root);
    const scope = children.find((e) => isDav(e, 'lockscope'));
    const type = children.find((e) => isDav(e, 'locktype'));
    const owner = children.find((e) => isDav(e, 'owner'));
    const scopeKind = scope && childElements(scope)[0];
    if (!scopeKind || !type || !childElements(type).some((e) => isDav(e, 'write'))) {
      return { status: 400 };
    }
    const shared = isDav(scopeKind, 'shared');
    if (!shared && !isDav(scopeKind, 'exclusive')) return { status: 400 };
    const depth = (request.headers.depth ?? 'infinity').toLowerCase();
    if (depth !== '0' && depth !== 'infinity') return { status: 400 };
    if (!(target.stat ? canModify(request.user) : canCreate(request.user))) return { status: 403 };
    const ownerXml = owner
      ? childElements(owner).map(serialize).join('') || escapeXml(owner.textContent ?? '')
      : '';
    const key = this.keyOf(target);
    const result = await this.locks.acquire(
      {
        token: `opaquelocktoken:${randomUUID()}`,
        path: key,
        deep: depth === 'infinity',
        shared,
        owner: ownerXml,
        userId: request.user.id,
        timeoutSeconds,
      },
      (live) => conflictingLocks(live, key, depth === 'infinity', shared),
    );
    if ('conflicts' in result) return { status: 423, xml: errorBody('no-conflicting-lock') };
    let status = 200;
    if (!target.stat) {
      // Locking an unmapped URL creates an empty file there (RFC 4918 section 7.3).
      const parent = await fs.resolve(virtualParent(target.path));
      if (!parent.stat?.isDirectory()) {
        await this.locks.remove([result.granted.token]);
        return { status: 409 };
      }
      try {
        await this.resources.upload(request.user, target.path, Readable.from([]), false);
      } catch (error) {
        await this.locks.remove([result.granted.token]);
        throw error;
      }
      target = await fs.resolve(target.path);
      status = 201;
    }
    const href = this.href(request, target.path, target.stat?.isDirectory() ?? false);
    return {
      status,
      headers: { 'lock-token': `<${result.granted.token}>` },
      xml: this.lockBody(result.granted, href),
    };
  }

  private lockBody(lock: DavLock, href: string): string {
    return (
      `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>` +
      `${activeLock(lock, href)}</D:lockdiscovery></D:prop>`
    );
  }

  /** LOCK without a body: refreshes the lock named in the If header. */
  private async refresh(
    request: DavRequest,
    fs: ScopedFs,
    target: Resolved,
    timeoutSeconds: number,
  ): Promise<DavReply> {
    const lists = this.ifLists(request);
    if (lists === 'invalid' || !lists) return { status: 400 };
    if (!target.stat) return { status: 404 };
    const live = await this.locks.live();
    const covering = locksCovering(live, this.keyOf(target));
    const token = submittedTokens(lists).find((t) =>
      covering.some((l) => l.token === t && l.userId === request.user.id),
    );
    if (!token) return { status: 412, xml: errorBody('lock-token-matches-request-uri') };
    const refreshed = await this.locks.refresh(token, timeoutSeconds);
    if (!refreshed) return { status: 412 };
    const href = this.lockHref(request, fs, refreshed, this.href(request, target.path, false));
    return { status: 200, xml: this.lockBody(refreshed, href) };
  }

  private async unlock(request: DavRequest, fs: ScopedFs): Promise<DavReply> {
    const header = request.headers.lockToken?.trim() ?? '';
    const match = /^<([^>]+)>$/.exec(header);
    if (!match) return { status: 400 };
    const target = await fs.resolve(request.path);
    const live = await this.locks.live();
    const lock = locksCovering(live, this.keyOf(target)).find((l) => l.token === match[1]);
    if (!lock) return { status: 409, xml: errorBody('lock-token-matches-request-uri') };
    if (lock.userId !== request.user.id) return { status: 403 };
    await this.locks.remove([lock.token]);
    return { status: 204 };
  }
}
