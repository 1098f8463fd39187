import { useQuery } from '@tanstack/react-query';
import { ArchetypeList, PostList, Site } from '@cabinet/protocol';
import * as z from 'zod/mini';
import { apiJson } from '../client.ts';
import { siteApiPath, siteKeys } from './site-keys.ts';

const SiteList = z.array(Site);

/** GET /api/sites?all=1 (administrators): every declared site. */
export function useAllSitesQuery() {
  return useQuery({
    queryKey: siteKeys.admin(),
    queryFn: ({ signal }) => apiJson('/sites?all=1', SiteList, { signal }),
  });
}

/**
 * GET /api/sites/{name}/posts. Read again when the event stream says the site changed (a publish,
 * schedule or build here, elsewhere or by the scheduler: features/events/use-live-folders.ts), not
 * on a timer.
 */
export function usePostsQuery(site: string) {
  return useQuery({
    queryKey: siteKeys.posts(site),
    queryFn: ({ signal }) => apiJson(siteApiPath(site, '/posts'), PostList, { signal }),
  });
}

/** GET /api/sites/{name}/archetypes: the templates a new post may start from. */
export function useArchetypesQuery(site: string) {
  return useQuery({
    queryKey: siteKeys.archetypes(site),
    queryFn: ({ signal }) => apiJson(siteApiPath(site, '/archetypes'), ArchetypeList, { signal }),
  });
}
