import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Site, type SiteCreateRequest, type SiteUpdateRequest } from '@cabinet/protocol';
import { apiJson, apiRequest } from '../client.ts';
import { siteApiPath, siteKeys } from './site-keys.ts';

/** POST /api/sites (administrators): 201 with the site, 409 `site_exists` for a taken name. */
export function useSiteCreateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SiteCreateRequest) =>
      apiJson('/sites', Site, { method: 'POST', json: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

/** PUT /api/sites/{name} (administrators): the fields to change. */
export function useSiteUpdateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, changes }: { name: string; changes: SiteUpdateRequest }) =>
      apiJson(siteApiPath(name), Site, { method: 'PUT', json: changes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

/** DELETE /api/sites/{name} (administrators): forgets the site; its files stay. */
export function useSiteDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      await apiRequest(siteApiPath(name), { method: 'DELETE' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.all }),
  });
}
