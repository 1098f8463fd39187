// WebDAV LOCK and UNLOCK (docs/webdav.md): new locks, refreshes and releases over the DavLocks
// coordination seam, so every instance sees the same locks.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DavLock } from '../../coordination/index.ts';
import { virtualParent } from '../../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../../fs/scoped-fs.ts';
import { canCreate, canModify } from '../permissions.ts';
import { submittedTokens } from './if-header.ts';
import { conflictingLocks, locksCovering, lockTimeout } from './lock-rules.ts';
import { activeLock } from './properties.ts';
import { childElements, errorBody, escapeXml, isDav, parseXml, serialize } from './xml.ts';
import type { DavReply, DavRequest } from './dav-types.ts';
import type { DavCore } from './dav-core.ts';

export async function lock(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  let target = await fs.resolve(request.path);
  const timeoutSeconds = lockTimeout(request.headers.timeout);
  if (request.body.trim() === '') return refresh(dav, request, fs, target, timeoutSeconds);
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
  const key = dav.keyOf(target);
  const result = await dav.locks.acquire(
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
      await dav.locks.remove([result.granted.token]);
      return { status: 409 };
    }
    try {
      await dav.resources.upload(request.user, target.path, Readable.from([]), false);
    } catch (error) {
      await dav.locks.remove([result.granted.token]);
      throw error;
    }
    target = await fs.resolve(target.path);
    status = 201;
  }
  const href = dav.href(request, target.path, target.stat?.isDirectory() ?? false);
  return {
    status,
    headers: { 'lock-token': `<${result.granted.token}>` },
    xml: lockBody(dav, result.granted, href),
  };
}

function lockBody(dav: DavCore, lock: DavLock, href: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>` +
    `${activeLock(lock, href)}</D:lockdiscovery></D:prop>`
  );
}

/** LOCK without a body: refreshes the lock named in the If header. */
async function refresh(
  dav: DavCore,
  request: DavRequest,
  fs: ScopedFs,
  target: Resolved,
  timeoutSeconds: number,
): Promise<DavReply> {
  const lists = dav.ifLists(request);
  if (lists === 'invalid' || !lists) return { status: 400 };
  if (!target.stat) return { status: 404 };
  const live = await dav.locks.live();
  const covering = locksCovering(live, dav.keyOf(target));
  const token = submittedTokens(lists).find((t) =>
    covering.some((l) => l.token === t && l.userId === request.user.id),
  );
  if (!token) return { status: 412, xml: errorBody('lock-token-matches-request-uri') };
  const refreshed = await dav.locks.refresh(token, timeoutSeconds);
  if (!refreshed) return { status: 412 };
  const href = dav.lockHref(request, fs, refreshed, dav.href(request, target.path, false));
  return { status: 200, xml: lockBody(dav, refreshed, href) };
}

export async function unlock(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  const header = request.headers.lockToken?.trim() ?? '';
  const match = /^<([^>]+)>$/.exec(header);
  if (!match) return { status: 400 };
  const target = await fs.resolve(request.path);
  const live = await dav.locks.live();
  const lock = locksCovering(live, dav.keyOf(target)).find((l) => l.token === match[1]);
  if (!lock) return { status: 409, xml: errorBody('lock-token-matches-request-uri') };
  if (lock.userId !== request.user.id) return { status: 403 };
  await dav.locks.remove([lock.token]);
  return { status: 204 };
}
