import * as z from 'zod/mini';

/**
 * One query parameter as the server reads it. The query-string parser hands a repeated key over
 * as an array; the first value counts, as filebrowser's `URL.Query().Get` does. Query schemas
 * accept every value a client may send and refuse nothing: a refusal belongs to the service, after
 * the session guard, so a signed-out client is told 401 before anything about its query.
 */
export const QueryText = z.pipe(
  z.union([z.string(), z.array(z.string())]),
  z.transform((value): string | undefined => (Array.isArray(value) ? value[0] : value)),
);

/** A yes/no query parameter: exactly `true` means yes; absent or any other spelling means no. */
export const QueryFlag = z.pipe(
  z.optional(QueryText),
  z.transform((value) => value === 'true'),
);

/**
 * The path parameter of every `/api/<area>/*` route: the rest of the URL after the area prefix,
 * percent-decoded once by the router, with no leading slash (`""` for the scope's root).
 */
export const PathParams = z.object({
  /** The virtual path below the area prefix, decoded once. */
  '*': z.string(),
});
export type PathParams = z.infer<typeof PathParams>;
