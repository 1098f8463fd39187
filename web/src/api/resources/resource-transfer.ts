import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** One PATCH: copy, or rename/move, of one entry. */
export interface ResourceTransferVariables {
  action: 'copy' | 'rename';
  /** Scope path of the entry. */
  from: string;
  /** Scope path it gets, name included. */
  to: string;
  /** Replace an entry already at `to` (needs the modify permission). */
  override?: boolean;
  /** On a clash take the first free "name(N).ext" instead. */
  rename?: boolean;
}

/**
 * PATCH /api/resources/{from}?action=…&destination=…: the server decodes `destination` twice (a
 * quirk of the reference client it keeps), so the percent-encoded path is encoded once more.
 */
export async function transferResource(variables: ResourceTransferVariables): Promise<void> {
  const { action, from, to, override = false, rename = false } = variables;
  const query = [
    `action=${action}`,
    `destination=${encodeURIComponent(encodePath(to))}`,
    `override=${override}`,
    `rename=${rename}`,
  ].join('&');
  await apiRequest(`/resources${encodePath(from)}?${query}`, { method: 'PATCH' });
}
