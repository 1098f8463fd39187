import * as z from 'zod/mini';

/**
 * Teams (docs/teams.md): groups of users, team folders an administrator grants, and items a user
 * shares with people. Both kinds of grant show up as ordinary folders in the recipient's
 * `/api/resources` paths; these schemas are the management API around them.
 */

/** Where a group's membership comes from: kept by administrators, or by the sign-in provider. */
export const GROUP_SOURCES = ['local', 'oidc'] as const;
export type GroupSource = (typeof GROUP_SOURCES)[number];

/** A group as administrators see it. */
export const Group = z.object({
  id: z.number(),
  /** Unique among groups, compared without case; 1–64 characters. */
  name: z.string(),
  /** Member user ids, ascending. */
  members: z.array(z.number()),
  /** `oidc`: created by single sign-on's groups claim; its members follow each sign-in. */
  source: z.enum(GROUP_SOURCES),
});
export type Group = z.infer<typeof Group>;

export const GroupList = z.array(Group);

/** Body of POST /api/groups and PUT /api/groups/{id}. */
export const GroupWriteRequest = z.object({
  name: z.string(),
  members: z.array(z.number()),
});
export type GroupWriteRequest = z.infer<typeof GroupWriteRequest>;

/** Body of PUT /api/users/{id}/groups: the user's groups, replacing the list. */
export const UserGroupsRequest = z.object({ groups: z.array(z.number()) });
export type UserGroupsRequest = z.infer<typeof UserGroupsRequest>;

/** Who a grant is for: one user or every member of a group. */
export const GRANTEE_KINDS = ['user', 'group'] as const;
export type GranteeKind = (typeof GRANTEE_KINDS)[number];

/**
 * What a grant lets its grantees do inside the shared folder. `view` alone is read-only; the edit
 * flags are the usual create / rename / modify / delete, and `share` lets a grantee make public
 * links inside it. What a grantee may do is always these ∩ their own permissions.
 */
export const GrantAccess = z.object({
  create: z.boolean(),
  rename: z.boolean(),
  modify: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
});
export type GrantAccess = z.infer<typeof GrantAccess>;

export const Grantee = z.object({
  kind: z.enum(GRANTEE_KINDS),
  id: z.number(),
  /** The user's username or the group's name, for display. */
  name: z.optional(z.string()),
});
export type Grantee = z.infer<typeof Grantee>;

/**
 * A team folder: a folder of the root granted by an administrator to users and groups, shown at
 * the top of each grantee's view under `name` (with " (team)" added on a clash with their own
 * content).
 */
export const TeamFolder = z.object({
  id: z.number(),
  /** The folder's name in grantees' views; one path segment. */
  name: z.string(),
  /** The folder's path from the root, with a leading slash. */
  path: z.string(),
  grantees: z.array(Grantee),
  access: GrantAccess,
  /** Bytes the folder may hold; 0 means the root's quota rules alone apply. */
  quota: z.number(),
});
export type TeamFolder = z.infer<typeof TeamFolder>;

export const TeamFolderList = z.array(TeamFolder);

/** Body of POST /api/team-folders and PUT /api/team-folders/{id}. */
export const TeamFolderWriteRequest = z.object({
  name: z.string(),
  path: z.string(),
  grantees: z.array(z.object({ kind: z.enum(GRANTEE_KINDS), id: z.number() })),
  access: GrantAccess,
  quota: z.optional(z.number()),
});
export type TeamFolderWriteRequest = z.infer<typeof TeamFolderWriteRequest>;

/**
 * A share with people: an item of its owner's scope shared with users and groups, found by them
 * under "Shared with me". It follows renames and moves of its item and ends with its deletion.
 */
export const PeopleShare = z.object({
  id: z.number(),
  /** The owner's path of the shared item (scope-relative, leading slash); follows moves. */
  path: z.string(),
  isDir: z.boolean(),
  ownerID: z.number(),
  owner: z.string(),
  grantees: z.array(Grantee),
  access: GrantAccess,
  /** Unix seconds; 0 means it never expires. */
  expire: z.number(),
});
export type PeopleShare = z.infer<typeof PeopleShare>;

export const PeopleShareList = z.array(PeopleShare);

/** Body of POST /api/people-shares (`path` set) and PUT /api/people-shares/{id} (`path` ignored). */
export const PeopleShareWriteRequest = z.object({
  path: z.optional(z.string()),
  grantees: z.array(z.object({ kind: z.enum(GRANTEE_KINDS), id: z.number() })),
  access: GrantAccess,
  /** Unix seconds; 0 or absent means it never expires. */
  expire: z.optional(z.number()),
});
export type PeopleShareWriteRequest = z.infer<typeof PeopleShareWriteRequest>;

/** One entry of GET /api/shared-with-me: where the recipient finds a grant in their view. */
export const SharedWithMe = z.object({
  kind: z.enum(['team', 'people']),
  /** The team folder's or the people share's id (leaving uses it). */
  id: z.number(),
  /** The grant's path in the recipient's view, e.g. `/Design` or `/Shared with me/report.pdf`. */
  path: z.string(),
  name: z.string(),
  isDir: z.boolean(),
  /** The owner's username; absent for team folders. */
  owner: z.optional(z.string()),
  access: GrantAccess,
  expire: z.number(),
});
export type SharedWithMe = z.infer<typeof SharedWithMe>;

export const SharedWithMeList = z.array(SharedWithMe);

/** One match of GET /api/people?q=: the users and groups a user may pick in the share dialog. */
export const PersonMatch = z.object({
  kind: z.enum(GRANTEE_KINDS),
  id: z.number(),
  name: z.string(),
});
export type PersonMatch = z.infer<typeof PersonMatch>;

export const PersonMatchList = z.array(PersonMatch);

/**
 * Cabinet's additive field on a `ResourceItem` (and a `Resource`) that is, or lies inside, a team
 * folder or a people share: what it is and what the grant allows. Clients that do not know it see
 * an ordinary folder.
 */
export const SharedMark = z.object({
  kind: z.enum(['team', 'people', 'shared-with-me']),
  id: z.optional(z.number()),
  owner: z.optional(z.string()),
  access: z.optional(GrantAccess),
});
export type SharedMark = z.infer<typeof SharedMark>;
