import { useQuery } from '@tanstack/react-query';
import { Settings } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/settings (administrators): the whole global settings object. */
export function useSettingsQuery() {
  return useQuery({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => apiJson('/settings', Settings, { signal }),
  });
}
