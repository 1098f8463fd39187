import mime from 'mime-types';
import type { DavLock } from '../../coordination/index.ts';
import type { EntryStat } from '../../fs/scoped-fs.ts';
import { DAV, escapeXml, keyOf, type PropName } from './xml.ts';

/** What the live properties of one resource are computed from. */
export interface DavEntry {
  /** Shown in the href: the virtual path of the request's view. */
  href: string;
  name: string;
  stat: EntryStat & { birthtimeMs?: number };
  /** Locks that apply to it (on it or a deep ancestor). */
  locks: DavLock[];
}

/**
 * The strong validator of a file or folder, the same as downloads send (http/file-reply.ts, from
 * `Stats.mtime`, which Node rounds to the millisecond).
 */
export function davEtag(stat: EntryStat): string {
  return `"${Math.round(stat.mtimeMs).toString(16)}-${stat.size.toString(16)}"`;
}

export function contentTypeOf(name: string): string {
  return mime.lookup(name) || 'application/octet-stream';
}

/** One `D:activelock` (lockdiscovery and the LOCK reply). */
export function activeLock(lock: DavLock, rootHref: string): string {
  const scope = lock.shared ? '<D:shared/>' : '<D:exclusive/>';
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>${scope}</D:lockscope>` +
    `<D:depth>${lock.deep ? 'infinity' : '0'}</D:depth>` +
    (lock.owner ? `<D:owner>${lock.owner}</D:owner>` : '') +
    `<D:timeout>Second-${lock.timeoutSeconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(rootHref)}</D:href></D:lockroot></D:activelock>`
  );
}

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** Live properties (RFC 4918 section 15): their names, all protected. */
export const LIVE_PROPERTIES = [
  'resourcetype',
  'getcontentlength',
  'getlastmodified',
  'getetag',
  'getcontenttype',
  'displayname',
  'creationdate',
  'supportedlock',
  'lockdiscovery',
] as const;

export function isLive(name: PropName): boolean {
  return name.ns === DAV && (LIVE_PROPERTIES as readonly string[]).includes(name.local);
}

/**
 * The value (inner XML) of a live property of `entry`, or undefined when it has none (a folder has
 * no length or type). `lockHref` turns a lock's root path into its href.
 */
export function liveValue(
  local: string,
  entry: DavEntry,
  lockHref: (lock: DavLock) => string,
): string | undefined {
  const isDir = entry.stat.isDirectory();
  switch (local) {
    case 'resourcetype':
      return isDir ? '<D:collection/>' : '';
    case 'getcontentlength':
      return isDir ? undefined : String(entry.stat.size);
    case 'getlastmodified':
      return new Date(entry.stat.mtimeMs).toUTCString();
    case 'getetag':
      return escapeXml(davEtag(entry.stat));
    case 'getcontenttype':
      return isDir ? undefined : escapeXml(contentTypeOf(entry.name));
    case 'displayname':
      return escapeXml(entry.name);
    case 'creationdate': {
      const born = entry.stat.birthtimeMs || entry.stat.mtimeMs;
      return new Date(born).toISOString();
    }
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery':
      return entry.locks.map((lock) => activeLock(lock, lockHref(lock))).join('');
    default:
      return undefined;
  }
}

/** The live property names a resource has (allprop and propname). */
export function liveNames(entry: DavEntry): PropName[] {
  const isDir = entry.stat.isDirectory();
  return LIVE_PROPERTIES.filter(
    (local) => !isDir || (local !== 'getcontentlength' && local !== 'getcontenttype'),
  ).map((local) => ({ ns: DAV, local }));
}

export { keyOf };
