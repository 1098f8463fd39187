// WebDAV PROPFIND and PROPPATCH (docs/webdav.md): live properties from the file system, dead ones
// from the database, keyed by the path from the served root.
import type { DavLock } from '../../coordination/index.ts';
import { virtualOfReal } from '../../fs/canonical-path.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import { canModify } from '../permissions.ts';
import { isLive, liveNames, liveValue, type DavEntry } from './properties.ts';
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
} from './xml.ts';
import type { DavReply, DavRequest } from './dav-types.ts';
import type { DavCore } from './dav-core.ts';

/** Most properties one PROPPATCH may set or remove. */
const XML_LIMIT_PROPS = 10_000;

export async function propfind(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
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
  const live = await dav.locks.live();
  const entries: { entry: DavEntry; key: string }[] = [];
  const add = async (item: { path: string; real: string; name: string; stat: DavEntry['stat'] }) =>
    entries.push({
      entry: await dav.entryOf(request, fs, item, live),
      key: virtualOfReal(item.real, dav.ctx.files.realRoot),
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
    const dead = await dav.ctx.store.davProperties.list(key);
    responses.push(propfindResponse(dav, request, fs, entry, dead, mode));
  }
  return { status: 207, xml: multistatus(responses) };
}

function propfindResponse(
  dav: DavCore,
  request: DavRequest,
  fs: ScopedFs,
  entry: DavEntry,
  dead: { name: string; xml: string }[],
  mode: 'allprop' | 'propname' | PropName[],
): string {
  const lockHref = (lock: DavLock) => dav.lockHref(request, fs, lock, entry.href);
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

export async function proppatch(
  dav: DavCore,
  request: DavRequest,
  fs: ScopedFs,
): Promise<DavReply> {
  const target = await fs.stat(request.path);
  const root = parseXml(request.body);
  if (!isDav(root, 'propertyupdate')) return { status: 400 };
  if (!canModify(request.user)) return { status: 403 };
  const blocked = await dav.checkWrite(request, fs, [{ resolved: target }]);
  if (blocked) return blocked;
  const changes: ({ kind: 'set'; name: string; xml: string } | { kind: 'remove'; name: string })[] =
    [];
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
  const href = dav.href(request, target.path, target.stat.isDirectory());
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
    await dav.ctx.store.davProperties.apply(dav.keyOf(target), changes);
    body = names.length > 0 ? propstat(names, 200) : '';
  }
  return {
    status: 207,
    xml: multistatus([`<D:response><D:href>${escapeXml(href)}</D:href>${body}</D:response>`]),
  };
}
