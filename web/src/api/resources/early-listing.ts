import type { Resource } from '@cabinet/protocol';
import { apiUrl } from '../client.ts';

/**
 * The folder a page load opens, asked for while the app is still starting. Otherwise the request
 * would wait for the app's code to run, the language and the layout's first render (about half a
 * second on a small machine), and a big folder's first rows with it. It is sent with the stored
 * token, straight through fetch: a refusal here must not end the session (the renewal decides
 * that); the files screen then simply asks again.
 */
interface EarlyListing {
  path: string;
  url: string;
  response: Promise<Response>;
  /** The reply read into a Resource, once a reader is given (`readEarlyListing`). */
  resource?: Promise<Resource>;
}

let early: EarlyListing | null = null;

/** Sends the early request of the scope path `path` (API path `url`). */
export function sendEarlyListing(path: string, token: string, url: string): void {
  const response = fetch(apiUrl(url), { headers: { 'X-Auth': token }, credentials: 'same-origin' });
  // Unhandled until taken: a failure is only seen by the files screen, which asks again.
  response.catch(() => undefined);
  early = { path, url, response };
}

/**
 * Starts reading the early reply as it arrives, with `read` (resource-query.ts: it shows the
 * first rows before the rest has come).
 */
export function readEarlyListing(
  read: (path: string, url: string, response: Response) => Promise<Resource>,
): void {
  if (!early || early.resource) return;
  const { path, url } = early;
  const resource = early.response.then((response) => {
    if (!response.ok) throw new Error(`early listing answered ${response.status}`);
    return read(path, url, response);
  });
  resource.catch(() => undefined);
  early.resource = resource;
}

/** The early reply of `path`, once: the next visit of the folder asks the server again. */
export function takeEarlyListing(path: string): Promise<Resource> | undefined {
  if (early?.path !== path || !early.resource) return undefined;
  const { resource } = early;
  early = null;
  return resource;
}
