// WebDAV COPY and MOVE (docs/webdav.md): Destination, Depth and Overwrite, the locks on both
// sides, and the dead properties that travel with the resource.
import { Readable } from 'node:stream';
import { virtualParent } from '../../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../../fs/scoped-fs.ts';
import type { DavReply, DavRequest } from './dav-types.ts';
import type { DavCore } from './dav-core.ts';

export async function transfer(dav: DavCore, request: DavRequest, fs: ScopedFs): Promise<DavReply> {
  const isMove = request.method === 'MOVE';
  const depth = (request.headers.depth ?? 'infinity').toLowerCase();
  if (depth !== 'infinity' && (isMove || depth !== '0')) return { status: 400 };
  const destinationPath = dav.destination(request);
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
  const blocked = await dav.checkWrite(request, fs, targets);
  if (blocked) return blocked;

  const sourceKey = dav.keyOf(source);
  const destinationKey = dav.keyOf(destination);
  if (existed) {
    // The quota is judged before the destination goes: a refused overwrite leaves it intact.
    await dav.resources.checkTransferRoom(
      request.user,
      source.path,
      destination.path,
      isMove ? 'rename' : 'copy',
    );
    // Overwrite: T replaces the destination as a whole (RFC 4918 9.8.4), through the delete path.
    await dav.resources.remove(request.user, destination.path);
    await dav.ctx.store.davProperties.removeTree(destinationKey);
    await dav.forgetLocks(destinationKey);
  }
  if (!isMove && depth === '0' && source.stat.isDirectory()) {
    await dav.resources.upload(request.user, `${destination.path}/`, Readable.from([]), false);
    const own = await dav.ctx.store.davProperties.list(sourceKey);
    await dav.ctx.store.davProperties.apply(
      destinationKey,
      own.map((p) => ({ kind: 'set' as const, name: p.name, xml: p.xml })),
    );
  } else {
    await dav.resources.transfer(request.user, source.path, {
      action: isMove ? 'rename' : 'copy',
      destination: destination.path,
      override: false,
      rename: false,
    });
    await dav.ctx.store.davProperties.transferTree(sourceKey, destinationKey, isMove);
    if (isMove) await dav.forgetLocks(sourceKey);
  }
  return existed ? { status: 204, replaced: destination.path } : { status: 201 };
}
