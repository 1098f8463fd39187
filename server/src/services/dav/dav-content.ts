// WebDAV GET, HEAD, PUT, DELETE and MKCOL (docs/webdav.md): reads and writes through ScopedFs and
// the resources service, each write checked against the locks first.
import { Readable } from 'node:stream';
import { virtualParent } from '../../fs/canonical-path.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import { canCreate, canDownload } from '../permissions.ts';
import { fileDownload } from '../raw.service.ts';
import { contentTypeOf, davEtag } from './properties.ts';
import type { DavReply, DavRequest } from './dav-types.ts';
import type { DavCore } from './dav-core.ts';

export async function get(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  const target = await fs.stat(request.path);
  if (!canDownload(request.user)) return { status: 403 };
  if (target.stat.isDirectory()) {
    return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, xml: '' };
  }
  const file = await fileDownload(fs, target, false);
  return { status: 200, file: { ...file, contentType: contentTypeOf(target.name) } };
}

export async function put(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  const target = await fs.resolve(request.path);
  if (target.path === '/' || target.trailingSlash) return { status: 405 };
  if (target.stat?.isDirectory()) return { status: 405 };
  const parent = await fs.resolve(virtualParent(target.path));
  if (!parent.stat?.isDirectory()) return { status: 409 };
  const blocked = await dav.checkWrite(request, fs, [{ resolved: target, parent: !target.stat }]);
  if (blocked) return blocked;
  const existed = target.stat !== null;
  await dav.resources.upload(request.user, target.path, request.stream ?? Readable.from([]), true);
  // The validator GET and PROPFIND give, so If headers can name the version just written.
  const written = await fs.stat(target.path);
  return { status: existed ? 204 : 201, headers: { etag: davEtag(written.stat) } };
}

export async function remove(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  const target = await fs.resolve(request.path);
  if (!target.stat && !target.isSymlink) return { status: 404 };
  if (target.path === '/') return { status: 403 };
  const blocked = await dav.checkWrite(request, fs, [
    { resolved: target, deep: true, parent: true },
  ]);
  if (blocked) return blocked;
  const key = dav.keyOf(target);
  await dav.resources.remove(request.user, target.path);
  await dav.ctx.store.davProperties.removeTree(key);
  await dav.forgetLocks(key);
  return { status: 204 };
}

export async function mkcol(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  if (request.body !== '') return { status: 415 };
  const target = await fs.resolve(request.path);
  if (target.stat || target.path === '/') return { status: 405 };
  const parent = await fs.resolve(virtualParent(target.path));
  if (!parent.stat?.isDirectory()) return { status: 409 };
  if (!canCreate(request.user)) return { status: 403 };
  const blocked = await dav.checkWrite(request, fs, [{ resolved: target, parent: true }]);
  if (blocked) return blocked;
  await dav.resources.upload(request.user, `${target.path}/`, Readable.from([]), false);
  return { status: 201 };
}
