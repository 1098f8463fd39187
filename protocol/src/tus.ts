import * as z from 'zod/mini';
import { QueryText } from './query.ts';

/** Query of `POST /api/tus/{path}` (create an upload). */
export const TusCreateQuery = z.object({
  /** `override=true` or `override=1`: replace an existing file (needs the modify permission). */
  override: z.pipe(
    z.optional(QueryText),
    z.transform((value) => value === 'true' || value === '1'),
  ),
});
export type TusCreateQuery = z.output<typeof TusCreateQuery>;

/**
 * An upload's state as the tus headers carry it: HEAD answers all of it, POST and PATCH the offset
 * and expiry. Header values are decimal integers, the expiry an RFC 7231 date.
 */
export const TusUploadState = z.object({
  /** `Upload-Offset`: bytes received so far; the next PATCH must start here. */
  offset: z.number(),
  /** `Upload-Length`: the file's full size in bytes. */
  length: z.number(),
  /** `Upload-Metadata`: the creation request's metadata, as sent (`key base64,…`); "" if none. */
  metadata: z.string(),
  /** `Upload-Expires`, in milliseconds since the epoch: an unfinished upload is dropped then. */
  expiresAt: z.number(),
});
export type TusUploadState = z.infer<typeof TusUploadState>;
