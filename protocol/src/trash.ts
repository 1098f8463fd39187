import * as z from 'zod/mini';
import { LinkTokenQuery } from './download.ts';
import { QueryFlag } from './query.ts';

/** One deleted item in a trash listing (Cabinet addition, docs/trash.md). */
export const TrashItem = z.object({
  /** The item's id in /api/trash/{id}/…. */
  id: z.string(),
  /** Its base name as it was. */
  name: z.string(),
  /**
   * The owner-scope path it was deleted from; in the caller's own list, an item they deleted
   * inside a grant shows its path in their view (docs/teams.md). `userID` 0: the root's trash.
   */
  path: z.string(),
  isDir: z.boolean(),
  /** Bytes (a folder: the sum of its files). */
  size: z.number(),
  /** When it was deleted, RFC 3339. */
  deletedAt: z.string(),
  /** The owner's user id and name. */
  userID: z.number(),
  username: z.string(),
  /** Who deleted it (the owner, or an administrator). */
  deletedBy: z.string(),
});
export type TrashItem = z.infer<typeof TrashItem>;

export const TrashList = z.array(TrashItem);

/** Query of GET /api/trash: administrators may ask for one user's trash or every user's. */
export const TrashListQuery = z.object({
  user: z.optional(z.string().check(z.regex(/^\d{1,10}$/))),
  all: z.optional(z.enum(['1', 'true'])),
});

export const TRASH_CONFLICT_CHOICES = ['replace', 'keep-both'] as const;

/** Body of POST /api/trash/{id}/restore. */
export const TrashRestoreBody = z.object({
  /** What to do when the original place is taken; without it a clash answers 409. */
  onConflict: z.optional(z.enum(TRASH_CONFLICT_CHOICES)),
});
export type TrashRestoreBody = z.infer<typeof TrashRestoreBody>;

/** The code of a 409 reply to a restore whose original place is taken. */
export const RESTORE_CONFLICT = 'restore_conflict';

/** Reply of a restore: where the item is now (a kept-both restore picks a free name). */
export const TrashRestoreReply = z.object({ path: z.string() });
export type TrashRestoreReply = z.infer<typeof TrashRestoreReply>;

/** Global trash settings (GET and PUT /api/trash/settings, administrators). */
export const TrashSettings = z.object({
  /** Off: deletes are immediate, as in filebrowser. */
  enabled: z.boolean(),
  /** Items are purged this many days after their deletion. */
  retentionDays: z.int().check(z.minimum(1), z.maximum(36_500)),
  /** At most this many bytes per user (oldest purged first); 0 means no cap. */
  maxBytesPerUser: z.int().check(z.nonnegative()),
});
export type TrashSettings = z.infer<typeof TrashSettings>;

export const DEFAULT_TRASH_SETTINGS: TrashSettings = {
  enabled: true,
  retentionDays: 30,
  maxBytesPerUser: 0,
};

/** Path parameter of /api/trash/{id}…: the id of a trashed item. */
export const TrashIdParams = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

/** Query of GET /api/trash/{id}/raw: the link token (like raw downloads) and `inline=true`. */
export const TrashRawQuery = z.extend(LinkTokenQuery, { inline: QueryFlag });
