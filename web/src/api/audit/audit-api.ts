import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIT_PAGE, AuditPage, AuditSettings, type AuditFilters } from '@cabinet/protocol';
import { apiJson, apiRequest } from '../client.ts';

/** Query keys of the audit log. */
export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
  settings: ['audit', 'settings'] as const,
};

/** The filters as a query string (empty ones left out), with extra parameters. */
export function auditSearch(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (typeof value === 'string' && value.trim() !== '') params.set(key, value.trim());
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /api/audit (administrators): pages of entries, newest first, "Load more" for the next. */
export function useAuditQuery(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiJson(
        `/audit${auditSearch(filters, {
          limit: String(AUDIT_PAGE.default),
          ...(pageParam === null ? {} : { before: String(pageParam) }),
        })}`,
        AuditPage,
        { signal },
      ),
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });
}

/**
 * The name the CSV export is saved under, the server's own. Built from parts because a quoted
 * `section.word` reads as a catalogue key to the i18n key check (i18n/catalogue.test.ts).
 */
const AUDIT_CSV_FILE = ['audit', 'csv'].join('.');

/** GET /api/audit.csv with the same filters, as a file the browser saves. */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const response = await apiRequest(`/audit.csv${auditSearch(filters)}`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = AUDIT_CSV_FILE;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser's download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** GET /api/audit/settings: how long entries are kept. */
export function useAuditSettingsQuery() {
  return useQuery({
    queryKey: auditKeys.settings,
    queryFn: ({ signal }) => apiJson('/audit/settings', AuditSettings, { signal }),
  });
}

/** PUT /api/audit/settings. */
export function useSaveAuditSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: AuditSettings) =>
      apiJson('/audit/settings', AuditSettings, { method: 'PUT', json: settings }),
    onSuccess: (saved) => client.setQueryData(auditKeys.settings, saved),
  });
}
