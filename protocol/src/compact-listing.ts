import * as z from 'zod/mini';
import { Resource } from './resource.ts';

/**
 * Cabinet's compact folder listing (`GET /api/resources/{folder}?format=compact`, docs/api.md):
 * NDJSON, one head line, then batches of entries as columns. The same entries, in the same order,
 * as the default reply's `items`; only the shape differs, so a 100,000-entry folder is a third of
 * the bytes and its first rows can be shown before the last batch has arrived.
 */
export const COMPACT_LISTING_FORMAT = 'compact';
export const COMPACT_LISTING_TYPE = 'application/x-ndjson';

/**
 * The head line: the default reply without `items`, plus how many entries follow (`count`), the
 * prefix of every entry's `path` (`base`, the entry's name follows it) and the table `types`
 * that the batches' type codes index.
 */
export const CompactListingHead = z.extend(Resource, {
  count: z.number(),
  base: z.string(),
  types: z.array(z.string()),
});
export type CompactListingHead = z.infer<typeof CompactListingHead>;

/** Bits of a batch's `flags` column. */
export const COMPACT_FLAG_DIR = 1;
export const COMPACT_FLAG_SYMLINK = 2;

/**
 * One batch line: entry k of the batch is `name[k]`, `size[k]` … (every column as long as `name`).
 * `extension` is not sent: it is the name from its last dot, as in the default reply.
 * `subtitles` lists `[k, paths]` for the videos of the batch that have some.
 */
export const CompactListingBatch = z.object({
  name: z.array(z.string()),
  size: z.array(z.number()),
  modified: z.array(z.string()),
  mode: z.array(z.number()),
  flags: z.array(z.number()),
  type: z.array(z.number()),
  subtitles: z.array(z.tuple([z.number(), z.array(z.string())])),
});
export type CompactListingBatch = z.infer<typeof CompactListingBatch>;

/**
 * The last line, only when the entries written differ from the head's counts: a folder listed
 * while it is read (name order, big folders) counts its entries before it stats them, and an entry
 * removed in between is not written. These counts then replace the head's.
 */
export const CompactListingTotals = z.object({
  count: z.number(),
  numDirs: z.number(),
  numFiles: z.number(),
});
export type CompactListingTotals = z.infer<typeof CompactListingTotals>;
