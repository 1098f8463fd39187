import { encodePath } from '../encode-path.ts';

/** The API path of a resource, folders in the compact form. */
export function resourceUrl(path: string): string {
  return `/resources${encodePath(path)}?format=compact`;
}
