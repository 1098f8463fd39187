import type { Scheduler } from '../../coordination/index.ts';

/** Scheduler job kinds of the static-site area. */
export const SITE_JOBS = {
  /** One per scheduled post, keyed `site-publish:<site>:<path>`: rebuilds the site when due. */
  publish: 'site.publish',
  /** Removes scratch previews past their time (site-previews.ts). */
  sweepPreviews: 'site.previews.sweep',
  /** Removes build folders a crash left in site folders, once old (site-builder.ts). */
  sweepBuilds: 'site.builds.sweep',
} as const;

export interface PublishPayload {
  site: string;
  path: string;
}

export function publishKey(site: string, path: string): string {
  return `site-publish:${site}:${path}`;
}

/** The site's pending publication jobs: post path → when it runs. */
export async function pendingSchedules(
  scheduler: Scheduler,
  name: string,
): Promise<Map<string, number>> {
  const pending = new Map<string, number>();
  for (const job of await scheduler.list(SITE_JOBS.publish)) {
    const payload = job.payload as PublishPayload;
    if (payload.site === name && job.failedAt === null) pending.set(payload.path, job.runAt);
  }
  return pending;
}
