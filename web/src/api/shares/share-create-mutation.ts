import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Share, type ShareUnit } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { shareKeys } from './share-keys.ts';

/** What the share dialog asks for. An empty `expires` makes a permanent link. */
export interface ShareCreateInput {
  path: string;
  expires: string;
  unit: ShareUnit;
  password: string;
  /** 0 = no limit. */
  downloadLimit: number;
  /** A file request (folders only): visitors upload, never list or download. */
  request?: boolean;
}

/** POST /api/share/{path}: a new link; the lists of links are read again afterwards. */
export function useShareCreateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareCreateInput) =>
      apiJson(`/share${encodePath(input.path)}`, Share, {
        method: 'POST',
        json: {
          expires: input.expires,
          unit: input.unit,
          password: input.password,
          downloadLimit: input.downloadLimit,
          request: input.request ?? false,
        },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
}
