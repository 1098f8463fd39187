import { useQuery } from '@tanstack/react-query';
import { ShareList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { shareKeys } from './share-keys.ts';

/** GET /api/shares: the user's links (every link for admins). */
export function useSharesQuery() {
  return useQuery({
    queryKey: shareKeys.list(),
    queryFn: ({ signal }) => apiJson('/shares', ShareList, { signal }),
    staleTime: 0,
  });
}

/** GET /api/share/{path}: the links of one item. */
export function usePathSharesQuery(path: string) {
  return useQuery({
    queryKey: shareKeys.path(path),
    queryFn: ({ signal }) => apiJson(`/share${encodePath(path)}`, ShareList, { signal }),
    staleTime: 0,
  });
}
