import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Post,
  PostActionResult,
  SiteBuild,
  type PostCreateRequest,
  type PostScheduleRequest,
} from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { siteApiPath, siteKeys } from './site-keys.ts';

/** POST /api/sites/{name}/posts: 201 with the post, 409 `slug_taken` when the file exists. */
export function usePostCreateMutation(site: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PostCreateRequest) =>
      apiJson(siteApiPath(site, '/posts'), Post, { method: 'POST', json: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.posts(site) }),
  });
}

/** What can be done to one post; each answers the post after it and the build it ran. */
export type PostAction =
  | { kind: 'publish'; path: string }
  | { kind: 'unpublish'; path: string }
  | ({ kind: 'schedule' } & PostScheduleRequest)
  | { kind: 'cancel'; path: string };

function runAction(site: string, action: PostAction) {
  switch (action.kind) {
    case 'publish':
    case 'unpublish':
      return apiJson(siteApiPath(site, `/${action.kind}`), PostActionResult, {
        method: 'POST',
        json: { path: action.path },
      });
    case 'schedule':
      return apiJson(siteApiPath(site, '/schedule'), PostActionResult, {
        method: 'POST',
        json: { path: action.path, at: action.at },
      });
    case 'cancel':
      return apiJson(
        siteApiPath(site, `/schedule?path=${encodeURIComponent(action.path)}`),
        PostActionResult,
        { method: 'DELETE' },
      );
  }
}

/** Publish, unpublish, schedule (POST …/schedule) or cancel (DELETE …/schedule?path=). */
export function usePostActionMutation(site: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: PostAction) => runAction(site, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: siteKeys.posts(site) }),
  });
}

/** POST /api/sites/{name}/build: runs the generator over the whole site. */
export function useSiteBuildMutation(site: string) {
  return useMutation({
    mutationFn: () => apiJson(siteApiPath(site, '/build'), SiteBuild, { method: 'POST' }),
  });
}
