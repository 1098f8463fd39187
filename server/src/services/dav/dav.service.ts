import type { DavLocks } from '../../coordination/index.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import type { ResourcesService } from '../resources.service.ts';
import { DavCore, type DavDeps } from './dav-core.ts';
import { mkcol, get, put, remove } from './dav-content.ts';
import { transfer } from './dav-copy-move.ts';
import { davReplyOf } from './dav-errors.ts';
import { lock, unlock } from './dav-locking.ts';
import { propfind, proppatch } from './dav-properties.ts';
import { DAV_METHODS, type DavReply, type DavRequest } from './dav-types.ts';

export { DAV_METHODS, type DavReply, type DavRequest } from './dav-types.ts';
export type { DavDeps } from './dav-core.ts';

/**
 * WebDAV class 1 and 2 over ScopedFs (docs/webdav.md): each user's scope as the web app shows it,
 * with the same permissions, rules and hooks. Writes go through the files service (uploads,
 * folders, copies, moves and deletes with their hooks); locks live behind a coordination seam and
 * dead properties in the database, both keyed by the path from the served root so that every
 * user's view of a file sees the same ones. A path the rules hide is a 404, as if it did not exist.
 */
export class DavService {
  private readonly core: DavCore;

  constructor(ctx: DavDeps, resources: ResourcesService, locks: DavLocks) {
    this.core = new DavCore(ctx, resources, locks);
  }

  async handle(request: DavRequest): Promise<DavReply> {
    const fs = await ScopedFs.forUser(this.core.ctx, request.user);
    // A denied path does not exist on WebDAV, spelled directly or through an alias.
    if (await fs.isDenied(request.path)) return { status: 404 };
    try {
      switch (request.method) {
        case 'OPTIONS':
          return this.options();
        case 'PROPFIND':
          return await propfind(this.core, request, fs);
        case 'PROPPATCH':
          return await proppatch(this.core, request, fs);
        case 'GET':
        case 'HEAD':
          return await get(this.core, request, fs);
        case 'PUT':
          return await put(this.core, request, fs);
        case 'DELETE':
          return await remove(this.core, request, fs);
        case 'MKCOL':
          return await mkcol(this.core, request, fs);
        case 'COPY':
        case 'MOVE':
          return await transfer(this.core, request, fs);
        case 'LOCK':
          return await lock(this.core, request, fs);
        case 'UNLOCK':
          return await unlock(this.core, request, fs);
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
}
