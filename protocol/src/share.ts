import * as z from 'zod/mini';
import { RawDownloadQuery } from './download.ts';
import { QueryText } from './query.ts';

/** Units a share duration may be given in; anything else counts as hours. */
export const SHARE_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof SHARE_UNITS)[number];

/**
 * A share link as the API shows it: never a password hash or a token. `downloadLimit` and
 * `downloads` are Cabinet's additions (docs/sharing.md); `username` names the owner.
 */
export const Share = z.object({
  /** The link's id, the last segment of `/share/{hash}` and of the public routes. */
  hash: z.string(),
  /** The owner's path of the shared item, as given when the link was made. */
  path: z.string(),
  /** The owner's user id. */
  userID: z.number(),
  /** Unix seconds; 0 means the link never expires. */
  expire: z.number(),
  /** Visitors must give a password (X-SHARE-PASSWORD) before anything is shown. */
  hasPassword: z.boolean(),
  /** Downloads allowed before the link stops; 0 means no limit. */
  downloadLimit: z.number(),
  /** Downloads counted so far. */
  downloads: z.number(),
  /** The shared item is a folder. */
  isDir: z.boolean(),
  /** A file request: visitors may only upload into the folder. */
  isRequest: z.boolean(),
  /** The owner's username. */
  username: z.string(),
});
export type Share = z.infer<typeof Share>;

export const ShareList = z.array(Share);

/**
 * Body of POST /api/share/{path}. `expires` is an integer as a string (the reference client sends
 * it so); empty or absent means permanent. `downloadLimit` is Cabinet's addition.
 */
export const ShareCreateRequest = z.object({
  /** A password visitors must give; empty or absent means none. */
  password: z.optional(z.string()),
  /** How long the link lives, in `unit`s; empty or absent means forever. */
  expires: z.optional(z.union([z.string(), z.number()])),
  /** One of SHARE_UNITS; anything else counts as hours. */
  unit: z.optional(z.string()),
  /** Downloads allowed before the link stops; 0 or absent means no limit. */
  downloadLimit: z.optional(z.number()),
  /** Cabinet's addition: make a file request (folders only) instead of a download link. */
  request: z.optional(z.boolean()),
});
export type ShareCreateRequest = z.infer<typeof ShareCreateRequest>;

/**
 * Query of the public share routes (`/api/public/share`, `/api/public/dl`, `/api/public/upload`):
 * a download's query plus the share's download token, which a protected share hands out after its
 * password. The token comes as `token` or as `auth`; here it is never a user session.
 */
export const PublicShareQuery = z.extend(RawDownloadQuery, {
  /** The share download token (the filebrowser client's spelling; `auth` is also read). */
  token: z.optional(QueryText),
  /** Cabinet's addition: the page visit's ticket, so one visit counts one download. */
  visit: z.optional(QueryText),
});
export type PublicShareQuery = z.output<typeof PublicShareQuery>;

/** Reply of `POST /api/public/upload/{hash}/{name}`: the name the file was saved under. */
export const PublicUploadReply = z.object({
  /** The name the file was saved under in the request's folder. */
  name: z.string(),
});
export type PublicUploadReply = z.infer<typeof PublicUploadReply>;
