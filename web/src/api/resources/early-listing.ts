import type { Resource } from '@cabinet/protocol';
import { apiUrl } from '../client.ts';

/**
 * The folder a page load opens, asked for while the app is still starting. Otherwise the request
 * would wait for the language, the session's renewal and the first render of the layout (about
 * half a second on a small machine), and a big folder's first rows with it. It is sent with the
 * stored token, straight through fetch: a refusal here must not end the session (the renewal
 * decides that); the files screen then simply asks again.
 */
const early = new Map<string, Promise<Resource>>();

/** Starts the early request of the scope path `path`, read by `read` (resource-query.ts). */
export function startEarlyListing(
  path: string,
  token: string,
  url: string,
  read: (response: Response) => Promise<Resource>,
): void {
  const request = fetch(apiUrl(url), {
    headers: { 'X-Auth': token },
    credentials: 'same-origin',
  }).then((response) => {
    if (!response.ok) throw new Error(`early listing answered ${response.status}`);
    return read(response);
  });
  // Unhandled until taken: a failure is only seen by the files screen, which asks again.
  request.catch(() => undefined);
  early.set(path, request);
}

/** The early request of `path`, once: the next visit of the folder asks the server again. */
export function takeEarlyListing(path: string): Promise<Resource> | undefined {
  const request = early.get(path);
  early.delete(path);
  return request;
}
