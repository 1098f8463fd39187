import type { Post, PostFailure } from '@cabinet/protocol';
import type { SitesContext } from './sites-context.ts';
import { parseFrontMatter } from './front-matter.ts';
import { postTimes, visibility } from './post-dates.ts';
import type { SiteAccess } from './site-access.ts';
import { splitPostPath } from './site-paths.ts';

/** The failed scheduled publications kept on a site's posts: post path → failure. */
export async function postFailures(
  ctx: SitesContext,
  name: string,
): Promise<Map<string, PostFailure>> {
  const failures = new Map<string, PostFailure>();
  for (const failure of await ctx.store.sites.failures(name)) {
    failures.set(failure.path, {
      at: new Date(failure.at).toISOString(),
      message: failure.message,
      log: failure.log,
    });
  }
  return failures;
}

/** A post as the posts list shows it: its state read as Hugo reads it (post-dates.ts). */
export function describePost(
  access: SiteAccess,
  rel: string,
  text: string,
  now: number,
  pending: Map<string, number>,
  failures: Map<string, PostFailure>,
): Post {
  const { section, slug } = splitPostPath(rel);
  let data: Record<string, unknown> = {};
  try {
    data = parseFrontMatter(text).data;
  } catch {
    // A post whose front matter does not parse is listed as a draft by its file name.
  }
  const times = postTimes(data);
  const draft = times.draft || Object.keys(data).length === 0;
  const shown = draft ? 'draft' : visibility(times, now);
  const scheduled = pending.get(rel);
  return {
    path: rel,
    filePath: `${access.sitePath}/content/${rel}`,
    section,
    slug,
    title: typeof data['title'] === 'string' ? data['title'] : slug,
    date: times.date,
    draft,
    // An expired post (Hugo's expiryDate passed) is off the site, as a draft is.
    state: shown === 'expired' ? 'draft' : shown,
    // A post's pending job may be its expiry's: only a post still to come is "scheduled for".
    scheduledAt:
      scheduled === undefined || shown !== 'scheduled' ? null : new Date(scheduled).toISOString(),
    failure: failures.get(rel) ?? null,
  };
}
