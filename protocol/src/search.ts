import * as z from 'zod/mini';
import { QueryText } from './query.ts';

/**
 * One line of the NDJSON stream of `GET /api/search/<dir>?query=`: a
 * matching entry, its path relative to the searched folder without a leading slash.
 */
export const SearchHit = z.object({
  /** The entry is a folder. */
  dir: z.boolean(),
  /** Path below the searched folder, `/`-separated, no leading slash. */
  path: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** The `type:` shortcuts the search overlay offers. */
export const SEARCH_TYPE_SHORTCUTS = ['image', 'audio', 'video', 'pdf'] as const;
export type SearchTypeShortcut = (typeof SEARCH_TYPE_SHORTCUTS)[number];

/** Query of `GET /api/search/<dir>`. */
export const SearchQuery = z.object({
  /** What to look for: name terms and `type:` shortcuts (docs/search.md); "" when absent. */
  query: z.pipe(
    z.optional(QueryText),
    z.transform((value) => value ?? ''),
  ),
});
export type SearchQuery = z.output<typeof SearchQuery>;
