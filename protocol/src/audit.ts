import * as z from 'zod/mini';
import { QueryText } from './query.ts';

/** Every action the audit log records (Cabinet addition, docs/audit.md). */
export const AUDIT_ACTIONS = [
  'login',
  'logout',
  'session.revoke',
  'user.create',
  'user.update',
  'user.delete',
  'settings.update',
  'share.create',
  'share.delete',
  'share.download',
  'file.delete',
  'file.replace',
  'trash.restore',
  'trash.delete',
  'trash.empty',
  'command.run',
  'hook.run',
  'app-password.create',
  'app-password.revoke',
  'two-factor.enrol',
  'two-factor.disable',
  'two-factor.reset',
  // Teams (docs/teams.md): grants, their changes and revocations, and recipients leaving.
  'group.create',
  'group.update',
  'group.delete',
  'team-folder.grant',
  'team-folder.change',
  'team-folder.revoke',
  'people-share.grant',
  'people-share.change',
  'people-share.revoke',
  'shared.leave',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** ok: done; refused: denied (credentials, permission, throttle); failed: an error. */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One entry of the audit log as GET /api/audit lists it. */
export const AuditEntry = z.object({
  /** Its id; the cursor of the next page is the last id of a page. */
  id: z.number(),
  /** When it happened, RFC 3339 (UTC). */
  time: z.string(),
  /** The acting user's id (0 when nobody was signed in, e.g. a failed login or a public link). */
  userID: z.number(),
  /** Their name as it was then (kept when the user is deleted; the name tried on a failed login). */
  username: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** What was acted on: a path, `user:<id>`, `share:<hash>`, or ''. */
  target: z.string(),
  /**
   * The target's human name when the entry was written: the user's name for `user:<id>`, the
   * deleted item's path for `trash:<id>`, the app password's name, the shared path; '' for a path
   * target (it names itself) and for entries written before names were kept.
   */
  targetName: z.string(),
  /** The client address (after trusted proxies), '' for work the server did on its own. */
  address: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** More about it: the reason of a refusal, the changed fields or keys (never their values). */
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Reply of GET /api/audit: newest first; `next` is the `before` of the next page, or null. */
export const AuditPage = z.object({
  entries: z.array(AuditEntry),
  next: z.nullable(z.number()),
});
export type AuditPage = z.infer<typeof AuditPage>;

/**
 * Query of GET /api/audit and /api/audit.csv: every filter optional. `user` matches a username
 * exactly (case-insensitive); `from`/`to` are RFC 3339 times or dates (`to` exclusive); `before`
 * is the cursor. Parsed leniently here and checked by the service (400 on a bad value).
 */
export const AuditQuery = z.object({
  user: z.optional(QueryText),
  action: z.optional(QueryText),
  from: z.optional(QueryText),
  to: z.optional(QueryText),
  outcome: z.optional(QueryText),
  limit: z.optional(QueryText),
  before: z.optional(QueryText),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** The filters as a client sends them (all strings, absent = any). */
export interface AuditFilters {
  user?: string;
  action?: string;
  from?: string;
  to?: string;
  outcome?: string;
}

/** Page size of GET /api/audit: default and most. */
export const AUDIT_PAGE = { default: 50, max: 500 } as const;

/** Global audit settings (GET and PUT /api/audit/settings, administrators). */
export const AuditSettings = z.object({
  /** Entries older than this many days are purged; 0 keeps them forever. */
  retentionDays: z.int().check(z.minimum(0), z.maximum(36_500)),
});
export type AuditSettings = z.infer<typeof AuditSettings>;

export const DEFAULT_AUDIT_SETTINGS: AuditSettings = { retentionDays: 90 };

/** The CSV export's columns, in order (docs/audit.md). */
export const AUDIT_CSV_COLUMNS = [
  'time',
  'user_id',
  'username',
  'action',
  'target',
  'address',
  'outcome',
  'details',
  // Last, so the columns of exports made before names were kept stay where they were.
  'target_name',
] as const;
