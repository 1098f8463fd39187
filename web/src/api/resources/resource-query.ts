import { useQuery } from '@tanstack/react-query';
import { Resource } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { resourceKeys } from './resource-keys.ts';

/** GET /api/resources/{path}: a folder listing or a file's details. */
export function fetchResource(path: string, signal?: AbortSignal): Promise<Resource> {
  return apiJson(`/resources${encodePath(path)}`, Resource, { signal });
}

/** The resource at a scope path, cached per path. */
export function useResourceQuery(path: string) {
  return useQuery({
    queryKey: resourceKeys.detail(path),
    queryFn: ({ signal }) => fetchResource(path, signal),
    // Every visit re-reads the folder (cached data shows meanwhile).
    staleTime: 0,
  });
}
