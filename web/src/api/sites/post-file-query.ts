import { useQuery } from '@tanstack/react-query';
import { Resource } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { siteKeys } from './site-keys.ts';

/**
 * GET /api/resources/{filePath}: a post's file with its text, for the sites editor. Its own
 * module and query key rather than the files screen's resource query, so that query stays in the
 * first screen's bundle alone, and the editor's text is read once (no refetch on focus).
 */
export function usePostFileQuery(filePath: string) {
  return useQuery({
    queryKey: siteKeys.file(filePath),
    queryFn: ({ signal }) => apiJson(`/resources${encodePath(filePath)}`, Resource, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
