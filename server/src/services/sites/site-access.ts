import path from 'node:path';
import type { SitesContext } from './sites-context.ts';
import { AppError, errors } from '../../errors.ts';
import { followSegments } from '../../fs/real-path.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import type { SiteRecord } from '../../store/sites.repo.ts';
import { canCreate, canModify } from '../permissions.ts';
import type { SessionUser } from '../sessions.service.ts';

/** A site a user may use, with their view of it. */
export interface SiteAccess {
  site: SiteRecord;
  /** The user's ScopedFs (rules apply to every post read and write). */
  userFs: ScopedFs;
  /** The site folder inside the user's scope. */
  sitePath: string;
}

function normalScope(scope: string): string {
  const normal = path.posix.normalize(`/${scope}`).replace(/\/+$/, '');
  return normal === '' ? '/' : normal;
}

/** Who may use which site, and each site's folder as its own ScopedFs (docs/sites.md, "Sites"). */
export class SiteAccessor {
  constructor(private readonly ctx: SitesContext) {}

  async get(name: string): Promise<SiteRecord> {
    const site = await this.ctx.store.sites.get(name);
    if (!site) throw errors.notFound();
    return site;
  }

  /**
   * Refuses (403) a site folder whose real location, every symlink on the way followed, is not
   * inside the served root: administrators are bound by the root too, and a build reads and writes
   * there. Checked when a site is declared or moved and again before every use of its folder,
   * since a link can be swapped in after the declaration.
   */
  async insideRoot(folder: string): Promise<void> {
    const root = this.ctx.files.realRoot;
    await followSegments(root, folder.split('/').filter(Boolean), root).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 403) {
        throw errors.forbidden(`the site folder ${folder} leads outside the root`);
      }
      throw error;
    });
  }

  /** The site folder as its own ScopedFs: the generator can reach nothing outside it. */
  async siteFs(site: SiteRecord, options: { create?: boolean } = {}): Promise<ScopedFs> {
    await this.insideRoot(site.folder);
    if (options.create) {
      const root = await ScopedFs.open(this.ctx.files, {
        scope: '/',
        rules: [],
        hideDotfiles: false,
      });
      await root.mkdir(site.folder);
    }
    return ScopedFs.open(this.ctx.files, { scope: site.folder, rules: [], hideDotfiles: false });
  }

  /** The user's view of a site, or undefined when it is not theirs to see. */
  async tryAccess(user: SessionUser, site: SiteRecord): Promise<SiteAccess | undefined> {
    if (!this.listsUser(site, user)) return undefined;
    const sitePath = this.pathInScope(site, user.scope);
    if (sitePath === undefined) return undefined;
    const userFs = await ScopedFs.forUser(
      { files: this.ctx.files, settings: this.ctx.settings },
      user,
    );
    if (await userFs.isDenied(sitePath)) return undefined;
    return { site, userFs, sitePath };
  }

  /** A site the user may use: 404 when it is not theirs to see, 403 without create+modify. */
  async access(user: SessionUser, name: string): Promise<SiteAccess> {
    return this.accessTo(user, await this.ctx.store.sites.get(name));
  }

  /** `access` for a site record read already (undefined: no such site, 404). */
  async accessTo(user: SessionUser, site: SiteRecord | undefined): Promise<SiteAccess> {
    const access = site && (await this.tryAccess(user, site));
    if (!access) throw errors.notFound();
    if (!canCreate(user) || !canModify(user)) throw errors.forbidden();
    return access;
  }

  /** Whether the site lists the user (or no one). */
  listsUser(site: SiteRecord, user: { id: number }): boolean {
    return site.users.length === 0 || site.users.includes(user.id);
  }

  /** The site folder inside a scope, or undefined when the scope does not hold it. */
  pathInScope(site: SiteRecord, scope: string): string | undefined {
    const normal = normalScope(scope);
    if (normal === '/') return site.folder;
    if (site.folder.startsWith(`${normal}/`)) return site.folder.slice(normal.length);
    return undefined;
  }
}
