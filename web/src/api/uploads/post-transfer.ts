import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import type { Transfer, TransferOptions } from './tus-transfer.ts';

/**
 * Creates a folder (path ending with "/") or an empty file with one empty POST
 * (docs/files-api.md): nothing to resume, so the tus routes are not needed.
 */
export function startPostTransfer(path: string, options: TransferOptions): Transfer {
  const controller = new AbortController();
  const query = options.override && !path.endsWith('/') ? '?override=true' : '';
  const done = apiRequest(`/resources${encodePath(path)}${query}`, {
    method: 'POST',
    body: '',
    signal: controller.signal,
  }).then(() => options.onProgress(0));
  return {
    done,
    cancel: async () => controller.abort(),
  };
}
