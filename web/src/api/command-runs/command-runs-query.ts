import { useQuery } from '@tanstack/react-query';
import { CommandRunList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';

/** Query keys of the recorded command runs. */
export const commandRunKeys = {
  all: ['command-runs'] as const,
  latest: (limit: number) => ['command-runs', 'latest', limit] as const,
};

/** GET /api/command-runs (administrators): the latest runs of the shell panel and hooks. */
export function useCommandRunsQuery(limit: number) {
  return useQuery({
    queryKey: commandRunKeys.latest(limit),
    queryFn: ({ signal }) => apiJson(`/command-runs?limit=${limit}`, CommandRunList, { signal }),
    staleTime: 0,
  });
}
