import { useQueries } from '@tanstack/react-query';
import { RecursiveListing, type ResourceItem } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { resourceKeys } from './resource-keys.ts';

/** Bytes held by the files under a folder, at any depth (folders themselves count nothing). */
export async function fetchTreeSize(folder: string, signal?: AbortSignal): Promise<number> {
  const entries = await apiJson(`/resources/recursive${encodePath(folder)}`, RecursiveListing, {
    signal,
  });
  return entries.reduce((sum, entry) => (entry.isDir ? sum : sum + entry.size), 0);
}

/**
 * The total size of some entries: files count their own size, folders the files inside them
 * (a folder's own size on disk says nothing to people). Undefined until every folder is summed.
 */
export function useResourceTreeSizeQuery(items: readonly ResourceItem[]): {
  total: number | undefined;
  isError: boolean;
} {
  const folders = items.filter((item) => item.isDir);
  const results = useQueries({
    queries: folders.map((folder) => ({
      queryKey: resourceKeys.treeSize(folder.path, folder.modified),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTreeSize(folder.path, signal),
      staleTime: 30_000,
      retry: false,
    })),
  });
  const files = items.reduce((sum, item) => (item.isDir ? sum : sum + item.size), 0);
  const isError = results.some((r) => r.isError);
  if (results.some((r) => r.data === undefined)) return { total: undefined, isError };
  return { total: results.reduce((sum, r) => sum + (r.data ?? 0), files), isError };
}
