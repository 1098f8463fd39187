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

/** How often the posts are read again while one is scheduled, so its publication shows. */
const SCHEDULED_REFRESH_MS = 5000;

/** GET /api/sites/{name}/posts; read again every few seconds while a post is scheduled. */
export function usePostsQuery(site: string) {
  return useQuery({
    queryKey: siteKeys.posts(site),
    queryFn: ({ signal }) => apiJson(siteApiPath(site, '/posts'), PostList, { signal }),
    refetchInterval: (query) =>
      query.state.data?.some((post) => post.state === 'scheduled') ? SCHEDULED_REFRESH_MS : false,
  });
}

/** GET /api/sites/{name}/archetypes: the templates a new post may start from. */
export function useArchetypesQuery(site: string) {
  return useQuery({
    queryKey: siteKeys.archetypes(site),
    queryFn: ({ signal }) => apiJson(siteApiPath(site, '/archetypes'), ArchetypeList, { signal }),
  });
}
