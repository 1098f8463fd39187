import { useQuery } from '@tanstack/react-query';
import { MediaInfo } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** The key of a file's media facts, for its path and modification time. */
function mediaInfoKey(path: string, modified: string) {
  return ['resources', 'media-info', path, modified] as const;
}

/**
 * GET /api/preview/info/{path}: a photo's camera, lens, exposure and date taken, or a video's or
 * song's duration and tags (docs/previews.md), kept for the file's path and modification time.
 * `prefetch` (the duration on a video tile) asks the server to read them after every picture
 * someone is looking at; the info dialog asks at once. Both share the one answer.
 */
export function useMediaInfoQuery(
  path: string,
  modified: string,
  enabled: boolean,
  prefetch = false,
) {
  return useQuery({
    queryKey: mediaInfoKey(path, modified),
    queryFn: ({ signal }) =>
      apiJson(`/preview/info${encodePath(path)}${prefetch ? '?prefetch=1' : ''}`, MediaInfo, {
        signal,
      }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * Where a remux of a video asked to start at `start` seconds really begins (the keyframe before,
 * `startSeconds`), with the video's facts (docs/previews.md, "Playback").
 */
export function remuxStart(path: string, start: number, signal?: AbortSignal) {
  return apiJson(`/preview/info${encodePath(path)}?start=${start.toFixed(3)}`, MediaInfo, {
    signal,
  });
}
