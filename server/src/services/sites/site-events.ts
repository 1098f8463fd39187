import { SITE_EVENT, type SiteEvent } from '@cabinet/protocol';
import type { SitesContext } from './sites-context.ts';
import type { EventBus } from '../../coordination/index.ts';
import type { SiteRecord } from '../../store/sites.repo.ts';
import type { SiteAccessor } from './site-access.ts';

/**
 * Tells a site's users that its posts or output changed (the `site` event of their event streams,
 * on every instance): each user who may see the site, as the posts list judges it, so a site a
 * rule hides from someone is not named to them. The event carries no post text: the page reads
 * the posts again with its own rights.
 */
export async function tellSiteUsers(
  ctx: SitesContext,
  bus: EventBus,
  sites: SiteAccessor,
  site: SiteRecord,
  event: Omit<SiteEvent, 'site'>,
): Promise<void> {
  try {
    for (const user of await ctx.store.users.list()) {
      if (!sites.listsUser(site, user) || sites.pathInScope(site, user.scope) === undefined) {
        continue;
      }
      if (!(await sites.tryAccess(user, site))) continue;
      await bus.publish(user.id, SITE_EVENT, { site: site.name, ...event });
    }
  } catch (error) {
    // The change itself happened: a page that missed the event shows it on its next read.
    ctx.log.warn({ err: error, site: site.name }, 'could not tell the site users of a change');
  }
}
