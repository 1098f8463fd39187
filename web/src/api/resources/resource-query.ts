import { useQuery, useQueryClient } from '@tanstack/react-query';
import { COMPACT_LISTING_TYPE, Resource } from '@cabinet/protocol';
import { ApiError } from '../api-error.ts';
import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { parseReply } from '../parse-reply.ts';
import { CompactListingError, readCompactListing } from './compact-listing.ts';
import { resourceKeys } from './resource-keys.ts';

/**
 * GET /api/resources/{path}: a folder listing or a file's details. Folders are asked for in
 * Cabinet's compact form (docs/api.md), which `onFirstRows` can show before it has all arrived;
 * a file's details come as the default JSON either way.
 */
export async function fetchResource(
  path: string,
  signal?: AbortSignal,
  onFirstRows?: (partial: Resource) => void,
): Promise<Resource> {
  const url = `/resources${encodePath(path)}?format=compact`;
  const response = await apiRequest(url, { signal });
  const type = response.headers.get('content-type') ?? '';
  try {
    if (type.startsWith(COMPACT_LISTING_TYPE) && response.body) {
      return await readCompactListing(response.body, onFirstRows);
    }
    const resource = parseReply(Resource, await response.text());
    if (resource) return resource;
  } catch (error) {
    if (!(error instanceof CompactListingError)) throw error;
    console.warn(`Cabinet: unexpected reply from ${url}`, error.message);
  }
  throw new ApiError(response.status, 'The server sent an unexpected reply', 'bad-reply');
}

/** The resource at a scope path, cached per path. */
export function useResourceQuery(path: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: resourceKeys.detail(path),
    queryFn: ({ signal }) =>
      fetchResource(path, signal, (partial) => {
        // A first visit shows the first rows at once; a revisit keeps the whole cached listing
        // on screen until the fresh one is complete.
        const key = resourceKeys.detail(path);
        if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, partial);
      }),
    // Every visit re-reads the folder (cached data shows meanwhile).
    staleTime: 0,
  });
}
