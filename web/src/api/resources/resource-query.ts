import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { COMPACT_LISTING_TYPE, Resource } from '@cabinet/protocol';
import { ApiError } from '../api-error.ts';
import { apiRequest } from '../client.ts';
import { parseReply } from '../parse-reply.ts';
import { CompactListingError, readCompactListing } from './compact-listing.ts';
import { takeEarlyListing } from './early-listing.ts';
import { resourceKeys } from './resource-keys.ts';
import { resourceUrl } from './resource-url.ts';

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
  const url = resourceUrl(path);
  return readResource(url, await apiRequest(url, { signal }), onFirstRows);
}

/** A resource reply (from `url`) read as the default form's Resource. */
export async function readResource(
  url: string,
  response: Response,
  onFirstRows?: (partial: Resource) => void,
): Promise<Resource> {
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

/**
 * Puts a folder's first rows in the query cache: a first visit shows them at once; a revisit keeps
 * the whole cached listing on screen until the fresh one is complete.
 */
export function showFirstRows(queryClient: QueryClient, path: string) {
  return (partial: Resource) => {
    const key = resourceKeys.detail(path);
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, partial);
  };
}

/** The resource at a scope path, cached per path. */
export function useResourceQuery(path: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: resourceKeys.detail(path),
    queryFn: ({ signal }) => {
      const fetchNow = () => fetchResource(path, signal, showFirstRows(queryClient, path));
      // The page load's own folder was asked for while the app started (early-listing.ts); if
      // that went wrong it is simply asked for again.
      return takeEarlyListing(path)?.catch(fetchNow) ?? fetchNow();
    },
    // Every visit re-reads the folder (cached data shows meanwhile).
    staleTime: 0,
    // A listing is replaced whole: comparing 100,000 fresh items with the old ones, to keep the
    // unchanged ones, cost more than rendering them.
    structuralSharing: false,
  });
}
