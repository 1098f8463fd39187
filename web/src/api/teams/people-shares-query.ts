import { useQuery } from '@tanstack/react-query';
import { PeopleShareList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** GET /api/people-shares: the shares with people the user made. */
export function usePeopleSharesQuery() {
  return useQuery({
    queryKey: teamKeys.peopleShares,
    queryFn: ({ signal }) => apiJson('/people-shares', PeopleShareList, { signal }),
    staleTime: 0,
  });
}

/** GET /api/people-shares?path=: who has access to one item (the share dialog). */
export function usePathPeopleSharesQuery(path: string) {
  return useQuery({
    queryKey: teamKeys.peopleSharesOf(path),
    queryFn: ({ signal }) =>
      apiJson(`/people-shares?path=${encodeURIComponent(path)}`, PeopleShareList, { signal }),
    staleTime: 0,
  });
}
