import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /api/settings: every card saves the whole object. */
export function useSettingsUpdateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: Settings) => {
      await apiRequest('/settings', { method: 'PUT', json: settings });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}
