import { useQuery } from '@tanstack/react-query';
import { QuotaUsage } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { quotaKeys } from './quota-keys.ts';

/** How often the sidebar's usage is refreshed while the app is open (writes also refresh it). */
const REFRESH_MS = 30_000;

/** GET /api/quota (Cabinet addition): the signed-in user's usage and quota (0 = none). */
export function useQuotaQuery(enabled: boolean) {
  return useQuery({
    queryKey: quotaKeys.all,
    queryFn: ({ signal }) => apiJson('/quota', QuotaUsage, { signal }),
    enabled,
    refetchInterval: REFRESH_MS,
  });
}
