import { useQuery } from '@tanstack/react-query';
import { MediaInfo } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/**
 * GET /api/preview/info/{path}: a photo's camera, lens, exposure and date taken, or a video's or
 * song's duration and tags (docs/previews.md), kept for the file's path and modification time.
 */
export function useMediaInfoQuery(path: string, modified: string, enabled: boolean) {
  return useQuery({
    queryKey: ['resources', 'media-info', path, modified] as const,
    queryFn: ({ signal }) => apiJson(`/preview/info${encodePath(path)}`, MediaInfo, { signal }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
