import { useQuery } from '@tanstack/react-query';
import { UserSiteList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { siteKeys } from './site-keys.ts';

/**
 * GET /api/sites: the sites this user may use (the sidebar shows "Sites" when there is one). A
 * module of its own: the sidebar is in the first screen's bundle, the rest of the area is not.
 */
export function useUserSitesQuery(enabled = true) {
  return useQuery({
    queryKey: siteKeys.mine(),
    queryFn: ({ signal }) => apiJson('/sites', UserSiteList, { signal }),
    enabled,
  });
}
