import * as z from 'zod/mini';
import { QueryFlag, QueryText } from './query.ts';

/** Query of `GET /api/resources/{path}`. */
export const ResourceQuery = z.object({
  /** A checksum algorithm (`md5`, `sha1`, `sha256`, `sha512`) to compute for a file. */
  checksum: z.optional(QueryText),
  /** Cabinet's addition: `compact` asks a folder for the NDJSON form (compact-listing.ts). */
  format: z.optional(z.enum(['compact'])),
});
export type ResourceQuery = z.output<typeof ResourceQuery>;

/** Query of `POST /api/resources/{path}` (create a file or, with a trailing slash, a folder). */
export const UploadQuery = z.object({
  /** `override=true`: replace an existing file (needs the modify permission); otherwise 409. */
  override: QueryFlag,
});
export type UploadQuery = z.output<typeof UploadQuery>;

/** The operations of `PATCH /api/resources/{path}`: `rename` moves, `copy` copies. */
export const TRANSFER_ACTIONS = ['copy', 'rename'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

/**
 * Query of `PATCH /api/resources/{path}`: copy or move the path to `destination`. Any other action
 * is answered 400 "unsupported action" by the service (after the session guard).
 */
export const TransferQuery = z.object({
  /** `copy` or `rename` (a move); see TRANSFER_ACTIONS. */
  action: z.optional(QueryText),
  /**
   * The target's virtual path, percent-encoded once more than the URL needs: the filebrowser
   * client double-encodes it, so the server decodes it once after the router did.
   */
  destination: z.optional(QueryText),
  /** `override=true`: replace an existing target (needs the modify permission). */
  override: QueryFlag,
  /** `rename=true`: on a clash, pick a free name ("name (1).ext") instead of answering 409. */
  rename: QueryFlag,
});
export type TransferQuery = z.output<typeof TransferQuery>;
