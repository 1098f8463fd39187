import * as z from 'zod/mini';
import { QueryFlag, QueryText } from './query.ts';

/**
 * The `auth` query parameter of a link the browser opens without headers (downloads, previews,
 * subtitles): the user's session token. The session guard reads it from the validated query.
 */
export const LinkTokenQuery = z.object({
  /** The session token, as the X-Auth header would carry it. */
  auth: z.optional(QueryText),
});

/**
 * Query of `GET /api/raw/{path}` and `GET /api/public/dl/{hash}/{path}`: one file, or a folder or
 * a selection as an archive.
 */
export const RawDownloadQuery = z.extend(LinkTokenQuery, {
  /**
   * A selection to archive: comma-separated paths relative to the requested folder, each
   * percent-encoded. Absent: the requested file itself, or the whole folder as an archive.
   */
  files: z.optional(QueryText),
  /** The archive format, a key of ARCHIVE_FORMATS (`zip` when absent). */
  algo: z.optional(QueryText),
  /** `inline=true`: a file is sent for display (Content-Disposition inline) instead of saving. */
  inline: QueryFlag,
});
export type RawDownloadQuery = z.output<typeof RawDownloadQuery>;

/** The two sizes of `GET /api/preview/{size}/{path}`: a grid thumbnail and a viewer image. */
export const PREVIEW_SIZES = ['thumb', 'big'] as const;
export const PreviewSize = z.enum(PREVIEW_SIZES);
export type PreviewSize = z.infer<typeof PreviewSize>;

/**
 * Path parameters of `GET /api/preview/{size}/{path}`. The size is checked by the route after the
 * session guard (400 "unknown preview size"), so it is any text here.
 */
export const PreviewParams = z.object({
  /** `thumb` or `big` (see PreviewSize), or `pdf`: an office document as PDF. */
  size: z.string(),
  /** The image's virtual path, decoded once. */
  '*': z.string(),
});
export type PreviewParams = z.infer<typeof PreviewParams>;

/** Query of `GET /api/preview/…` and `GET /api/subtitle/…`. */
export const InlineQuery = z.extend(LinkTokenQuery, {
  /** `inline=true`: Content-Disposition inline rather than attachment. */
  inline: QueryFlag,
});
export type InlineQuery = z.output<typeof InlineQuery>;

/** Query of `GET /api/preview/{thumb|big|pdf}/…` (docs/previews.md). */
export const PreviewQuery = z.extend(InlineQuery, {
  /**
   * Cabinet's addition: `prefetch=1` asks for a tile not on screen yet; it is made after every
   * picture someone is looking at.
   */
  prefetch: QueryFlag,
  /**
   * `GET /api/preview/play/…`: seconds into the video where the remux starts (its keyframe
   * before); `GET /api/preview/info/…`: adds `startSeconds`, where that remux really begins.
   */
  start: z.optional(z.string()),
});
export type PreviewQuery = z.output<typeof PreviewQuery>;
