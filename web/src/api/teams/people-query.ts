import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PersonMatchList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/**
 * GET /api/people?q=: users and groups the user may pick, matching what they typed. Nothing is
 * asked for an empty query; the previous matches stay on screen while the next ones load.
 */
export function usePeopleQuery(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: teamKeys.people(q),
    queryFn: ({ signal }) =>
      apiJson(`/people?q=${encodeURIComponent(q)}`, PersonMatchList, { signal }),
    enabled: q !== '',
    placeholderData: keepPreviousData,
  });
}
