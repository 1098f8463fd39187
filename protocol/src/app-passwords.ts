import * as z from 'zod/mini';

/** One app password as GET /api/app-passwords lists it (never the secret). */
export const AppPassword = z.object({
  /** Names the password in DELETE /api/app-passwords/{id}; the public part of the password. */
  id: z.string(),
  /** The user it belongs to. */
  userId: z.number(),
  /** What the user called it ("Phone", "Backup script"). */
  name: z.string(),
  /** Every write made with it is refused (403). */
  readOnly: z.boolean(),
  /** The folder of the user's scope it is limited to; `/` for the whole scope. */
  folder: z.string(),
  /** Unix milliseconds. */
  createdAt: z.number(),
  /** Unix milliseconds of the last use, precise to a minute; null when never used. */
  lastUsedAt: z.nullable(z.number()),
});
export type AppPassword = z.infer<typeof AppPassword>;

export const APP_PASSWORD_NAME_MAX = 100;

/** Body of POST /api/app-passwords. */
export const AppPasswordCreate = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(APP_PASSWORD_NAME_MAX)),
  readOnly: z.optional(z.boolean()),
  /** A folder of the user's scope (default `/`). */
  folder: z.optional(z.string().check(z.maxLength(4096))),
});
export type AppPasswordCreate = z.infer<typeof AppPasswordCreate>;

/** Reply of POST /api/app-passwords: the password itself, shown this once. */
export const AppPasswordCreated = z.extend(AppPassword, {
  password: z.string(),
});
export type AppPasswordCreated = z.infer<typeof AppPasswordCreated>;

/** Query of GET /api/app-passwords: administrators may name another user. */
export const AppPasswordListQuery = z.object({
  user: z.optional(z.string()),
});

export const AppPasswordParams = z.object({ id: z.string() });
