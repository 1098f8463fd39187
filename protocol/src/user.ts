import * as z from 'zod/mini';

/** The eight permission flags of a user; admin implies every other one. */
export const Perm = z.object({
  admin: z.boolean(),
  execute: z.boolean(),
  create: z.boolean(),
  rename: z.boolean(),
  modify: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
  download: z.boolean(),
});
export type Perm = z.infer<typeof Perm>;
export const PERM_NAMES = z.keyof(Perm).options;

/** Listing order. Note the inverted flag for name sorting: asc:false means A→Z. */
export const Sorting = z.object({
  by: z.string().check(z.maxLength(32)),
  asc: z.boolean(),
});
export type Sorting = z.infer<typeof Sorting>;

/** An allow or block rule on a scope-relative path or a regular expression. */
export const Rule = z.object({
  regex: z.boolean(),
  allow: z.boolean(),
  path: z.string().check(z.maxLength(4096)),
  regexp: z.optional(z.nullable(z.object({ raw: z.string().check(z.maxLength(4096)) }))),
});
export type Rule = z.infer<typeof Rule>;

/** A storage quota in bytes: a whole number, 0 = no quota (at most 2^53 − 1). */
export const QuotaBytes = z.int().check(z.nonnegative());

/** Fields a user record carries on the wire. `password` is always "" in replies. */
export const User = z.object({
  id: z.int().check(z.nonnegative()),
  username: z.string(),
  password: z.string(),
  scope: z.string(),
  locale: z.string(),
  lockPassword: z.boolean(),
  viewMode: z.string(),
  singleClick: z.boolean(),
  redirectAfterCopyMove: z.boolean(),
  perm: Perm,
  commands: z.array(z.string()),
  sorting: Sorting,
  rules: z.array(Rule),
  hideDotfiles: z.boolean(),
  dateFormat: z.boolean(),
  aceEditorTheme: z.string(),
  /**
   * Cabinet addition: the storage quota in bytes, 0 = none (docs/quotas.md). Optional on the wire
   * so filebrowser clients that never send it leave it unchanged.
   */
  quota: z.optional(QuotaBytes),
  /** Cabinet addition, `GET /api/users/{id}` only: the ids of the user's groups (docs/teams.md). */
  groups: z.optional(z.array(z.number())),
});
export type User = z.infer<typeof User>;

/** Reply of `GET /api/users` (administrators): every user, by id. */
export const UserList = z.array(User);

/** Write envelope for POST and PUT /api/users. Fields of `data` may be partial. */
export const UserWriteRequest = z.object({
  what: z.string(),
  which: z._default(z.array(z.string()), []),
  current_password: z.optional(z.string()),
  data: z.extend(z.partial(User), {
    perm: z.optional(z.partial(Perm)),
    sorting: z.optional(z.partial(Sorting)),
  }),
});
export type UserWriteRequest = z.infer<typeof UserWriteRequest>;

/** Fields a non-admin may never change on themselves. */
export const ADMIN_ONLY_USER_FIELDS = [
  'username',
  'scope',
  'lockPassword',
  'perm',
  'commands',
  'rules',
  'quota',
] as const;

/** The `user` claim inside a token: what clients decode for their session. */
export const TokenUser = z.object({
  id: z.number(),
  locale: z.string(),
  viewMode: z.string(),
  singleClick: z.boolean(),
  redirectAfterCopyMove: z.boolean(),
  perm: Perm,
  commands: z.array(z.string()),
  lockPassword: z.boolean(),
  hideDotfiles: z.boolean(),
  dateFormat: z.boolean(),
  username: z.string(),
  aceEditorTheme: z.string(),
});
export type TokenUser = z.infer<typeof TokenUser>;

/** Claims of a Cabinet token: the filebrowser v2 shape plus a session id. */
export const TokenClaims = z.object({
  user: TokenUser,
  iss: z.optional(z.string()),
  iat: z.number(),
  exp: z.number(),
  jti: z.optional(z.string()),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

/**
 * Path parameters of `/api/users/{id}`. The id is any text here: a malformed or unknown id is a
 * 404 from the service, after the session guard.
 */
export const UserIdParams = z.object({
  /** The user's numeric id, in decimal. */
  id: z.string(),
});
export type UserIdParams = z.infer<typeof UserIdParams>;
