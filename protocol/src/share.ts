import * as z from 'zod/mini';

/** Units a share duration may be given in; anything else counts as hours (API.md section 3b). */
export const SHARE_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof SHARE_UNITS)[number];

/**
 * A share link as the API shows it: never a password hash or a token. `downloadLimit` and
 * `downloads` are Cabinet's additions (docs/sharing.md); `username` names the owner.
 */
export const Share = z.object({
  hash: z.string(),
  /** The owner's path of the shared item, as given when the link was made. */
  path: z.string(),
  userID: z.number(),
  /** Unix seconds; 0 means the link never expires. */
  expire: z.number(),
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
  password: z.optional(z.string()),
  expires: z.optional(z.union([z.string(), z.number()])),
  unit: z.optional(z.string()),
  downloadLimit: z.optional(z.number()),
  /** Cabinet's addition: make a file request (folders only) instead of a download link. */
  request: z.optional(z.boolean()),
});
export type ShareCreateRequest = z.infer<typeof ShareCreateRequest>;
