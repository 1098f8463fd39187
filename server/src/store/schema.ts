import type { Generated } from 'kysely';

/** Tables of Cabinet's own state. JSON columns are text so SQLite and PostgreSQL read the same. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  /** JSON of the user's other fields (scope, perm, rules, sorting, …). */
  profile: string;
  /** Milliseconds; a token issued before this asks its client to renew. */
  updated_at: number;
}

export interface KeyValueTable {
  key: string;
  value: string;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The User-Agent header of the login request, cut to 512 characters. */
  user_agent: Generated<string>;
  /** The client address of the login request. */
  address: Generated<string>;
  /** Milliseconds; refreshed at most once a minute by authenticated requests. */
  last_used_at: number | null;
  /** 1 while the session may only enrol in two-factor sign-in (the admin requires it). */
  enrol_only: Generated<number>;
}

export interface SharesTable {
  hash: string;
  path: string;
  user_id: number;
  expire: number;
  password_hash: string;
  /** Unused: download tokens are signed, not stored (kept for the first migration's column). */
  token: string;
  /** Root-relative real path of the shared item ('' for links made before migration 0003). */
  target: Generated<string>;
  /** Downloads allowed; 0 = no limit. */
  download_limit: Generated<number>;
  downloads: Generated<number>;
  /** 1 when the shared item is a folder. */
  is_dir: Generated<number>;
  /** 1 for a file request (an upload-only folder link). */
  is_request: Generated<number>;
}

/** Resumable (tus) uploads in progress; the offset is the staging file's size on disk. */
export interface UploadSessionsTable {
  id: string;
  user_id: number;
  /** The user-visible canonical path of the upload's target. */
  path: string;
  /** Identity of the target file (the real path, issued by ScopedFs): one upload per target at a time. */
  target: string;
  /** Real absolute path of the staging file beside the target. */
  staging: string;
  /** Declared Upload-Length in bytes. */
  length: number;
  /** 1 when the client asked to replace an existing file. */
  override: number;
  /** The Upload-Metadata header as the client sent it. */
  metadata: string;
  /** 1 once the file was renamed into place; kept until expiry so a retried HEAD sees it done. */
  completed: Generated<number>;
  created_at: number;
  /** Milliseconds; pushed forward by every PATCH. */
  expires_at: number;
}

/** Every run of the shell panel and of an event hook, for administrators to review. */
export interface CommandRunsTable {
  id: Generated<number>;
  /** `command` (shell panel) or the hook's event key (`before_upload`, …). */
  kind: string;
  user_id: number;
  username: string;
  /** Virtual folder (shell panel) or file (hook) the run concerned. */
  path: string;
  line: string;
  outcome: string;
  exit_code: number | null;
  duration_ms: number;
  /** Milliseconds since the epoch. */
  started_at: number;
}

/**
 * Fixed-window attempt counts (login, signup, share passwords) shared by every instance: one row
 * per counter scope and key, counted by one atomic upsert (docs/runtime.md, "Coordination").
 */
export interface AttemptsTable {
  /** The counter's name (`login`, `signup`, …): keys of different counters never mix. */
  scope: string;
  /** What is counted: an address or a username, prefixed by kind (`ip:`, `user:`). */
  key: string;
  /** Attempts in the current window. */
  count: number;
  /** Milliseconds; the window ends (and the count restarts) at this time. */
  reset_at: number;
}

/**
 * Leases: the right to one named thing (a lock, an upload) held by one holder at a time across
 * instances, until released or until `expires_at` passes without a refresh (a crashed holder).
 */
export interface LeasesTable {
  /** `lock:<name>` for named locks, `upload:<id>` for upload leases. */
  name: string;
  /** The instance id and a random part: one acquisition. */
  holder: string;
  /** Milliseconds; pushed forward while the holder is alive. */
  expires_at: number;
  /** 1 when another instance asks the holder to give the lease up (a newer upload request). */
  takeover: Generated<number>;
}

/**
 * Instances sharing the database, each holding a lease on its own id that it renews while it runs
 * (coordination/instance-lease.ts); one whose lease expired is gone.
 */
export interface InstancesTable {
  /** The instance id (`host:pid:random`): what its journal folder and temp files are named by. */
  id: string;
  /** For the operator: where it ran. */
  host: string;
  /** Its process id, meaningful only within `pid_space`. */
  pid: number;
  /** Boot id and PID namespace (fs/pid-space.ts), or null where /proc does not tell. */
  pid_space: string | null;
  started_at: number;
  /** Milliseconds; pushed forward while the instance runs. */
  expires_at: number;
}

/** Timed work that must run once across instances and survive restarts (the scheduler). */
export interface ScheduledJobsTable {
  id: string;
  /** Which handler runs it. */
  kind: string;
  /** Scheduling with the same key replaces the pending job (recurring jobs: `every:<kind>`). */
  key: string | null;
  /** Milliseconds; due from then on. */
  run_at: number;
  /** Milliseconds between runs of a recurring job; null for a one-off. */
  interval_ms: number | null;
  /** JSON handed to the handler. */
  payload: string;
  /** The claim (instance id and a random part) of the run in progress. */
  claimed_by: string | null;
  /** Milliseconds; the claim is extended while the handler runs and lapses when its instance dies. */
  claimed_until: number | null;
  /** Failed runs since the last success. */
  attempts: Generated<number>;
  last_error: string | null;
  /** Milliseconds; set when the job used up its attempts (kept for administrators). */
  failed_at: number | null;
  created_at: number;
}

/** Sites of the static-site area (docs/sites.md), declared by administrators. */
export interface SitesTable {
  /** The URL segment (`/sites/<name>/`). */
  name: string;
  title: string;
  /** The site folder, relative to the server's root. */
  folder: string;
  /** `builtin` or `hugo`. */
  generator: string;
  /** The output folder, relative to the site folder. */
  output: string;
  /** 1 when the output is served without sign-in at `/sites/<name>/`. */
  serve: Generated<number>;
  /** JSON array of the user ids allowed on the site; empty for every user whose scope holds it. */
  users: Generated<string>;
  created_at: number;
}

/** The last failed scheduled publication of a post, until it is published or scheduled again. */
export interface SitePostFailuresTable {
  /** `<site>:<path>` (site names hold no colon). */
  id: string;
  site: string;
  /** The post, relative to the site's content/ folder. */
  path: string;
  /** Milliseconds since the epoch. */
  at: number;
  message: string;
  /** The generator's output. */
  log: string;
}

/** Deleted items kept in the trash (docs/trash.md); the files live under `<data>/trash/`. */
export interface TrashItemsTable {
  /** Random id; also the item's folder name under `<data>/trash/<user_id>/`. */
  id: string;
  /**
   * The owner: the user whose scope the item was deleted from (inside a share with people, the
   * share's owner; inside a team folder, 0: the root's trash, docs/teams.md).
   */
  user_id: number;
  /** Base name of the item as it was. */
  name: string;
  /** Owner-scope virtual path it was deleted from. */
  path: string;
  /** Root-relative real path it was deleted from. */
  target: string;
  is_dir: number;
  /** Bytes of the item (a folder: the sum of its files). */
  size: number;
  /** Milliseconds since the epoch. */
  deleted_at: number;
  /** The user who deleted it (the owner, or an administrator's action on the owner's item). */
  deleted_by: number;
  /** JSON: the share links of the item, taken down while it is trashed and put back on restore. */
  shares: Generated<string>;
}

/** Bytes used under the scope of users with a quota (docs/quotas.md), kept incrementally. */
export interface QuotaUsageTable {
  /** The scope folder's real path relative to the root, '/'-separated ('' for the root itself). */
  scope: string;
  used: number;
  /** Milliseconds of the last full count (the reconcile walk). */
  counted_at: number;
}

/**
 * Visits of share pages whose file was served once (docs/sharing.md): the first byte-serving
 * request of a visit counts one download, later ones of the same visit do not.
 */
export interface ShareVisitsTable {
  /** The visit's random id (from its signed ticket). */
  id: string;
  hash: string;
  /** Milliseconds; the ticket dies then, and the row may go. */
  expires_at: number;
}

/** Two-factor sign-in of one user (docs/two-factor.md). */
export interface TwoFactorTable {
  user_id: number;
  /** The TOTP secret, AES-256-GCM encrypted (see services/sign-in/totp-secret.ts). */
  secret: string;
  /** 0 while enrolment waits for its first code, 1 once confirmed. */
  enabled: Generated<number>;
  /** TOTP time step of the last accepted code; codes of this step or earlier are refused. */
  last_step: number | null;
  /** JSON array of SHA-256 hex digests of the unused recovery codes. */
  recovery_codes: Generated<string>;
  created_at: number;
}

/**
 * Short-lived single sign-on state, each row taken once (docs/sso.md): `login` rows are keyed by
 * the state sent to the provider, `handoff` rows by the SHA-256 of the one-time code.
 */
export interface OidcRequestsTable {
  id: string;
  kind: string;
  /** JSON: what the step needs (nonce, PKCE verifier, …). */
  data: string;
  /** Milliseconds; the row is refused (and may be deleted) from then on. */
  expires_at: number;
}

/** The provider's ID token of a session opened by single sign-on, for the provider's logout. */
export interface OidcSessionsTable {
  session_id: string;
  id_token: string;
}

/**
 * Background copy, move and delete jobs of users (docs/jobs.md). Not the scheduler's
 * `scheduled_jobs`: a file job is carried by one scheduler job ("run file job X") while it runs.
 */
export interface FileJobsTable {
  id: string;
  user_id: number;
  /** `copy`, `move` or `delete`. */
  kind: string;
  /** `queued`, `running`, `waiting`, `done`, `failed` or `cancelled`. */
  state: string;
  /** `ask`, `replace`, `skip` or `keep-both`. */
  on_conflict: string;
  /** JSON array of `{from, to?}`, as given. */
  items: string;
  item_count: number;
  /** The item in progress (or next): items before it are finished. */
  item_index: number;
  /** The current item's decided destination once it started (null: not started yet). */
  item_target: string | null;
  /** 1 when the current item replaces (merges into) its destination. */
  item_override: number;
  /** Files of the current item already copied (a resumed copy skips them). */
  file_index: number;
  /** The answer to the current item's conflict question. */
  answer: string | null;
  /** While waiting: the destination that exists. */
  question: string | null;
  /** Null until measured. */
  files_total: number | null;
  files_done: number;
  bytes_total: number | null;
  bytes_done: number;
  /** Bytes per second of the last run. */
  rate: number;
  current: string | null;
  error_status: number | null;
  error_message: string | null;
  /** The instance running the job (host:pid:random), to recognise a crashed runner. */
  runner: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The client address that asked for the job: its deletes are audited from there. */
  address: string;
  /** Items whose destination existed and that a conflict answer skipped, or replaced. */
  items_skipped: Generated<number>;
  items_replaced: Generated<number>;
}

/** Teams (migration 0020, docs/teams.md). */
export interface GroupsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  source: string;
}

export interface GroupMembersTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
}

export interface TeamFoldersTable {
  id: Generated<number>;
  name: string;
  path: string;
  access: number;
  quota: number;
}

export interface PeopleSharesTable {
  id: Generated<number>;
  owner_id: number;
  path: string;
  target: string;
  is_dir: number;
  access: number;
  expire: number;
}

export interface GranteesTable {
  id: Generated<number>;
  grant_kind: string;
  grant_id: number;
  grantee_kind: string;
  grantee_id: number;
}

export interface SharedLeftTable {
  id: Generated<number>;
  user_id: number;
  grant_kind: string;
  grant_id: number;
}

export interface Database {
  users: UsersTable;
  kv: KeyValueTable;
  sessions: SessionsTable;
  shares: SharesTable;
  upload_sessions: UploadSessionsTable;
  command_runs: CommandRunsTable;
  attempts: AttemptsTable;
  leases: LeasesTable;
  instances: InstancesTable;
  scheduled_jobs: ScheduledJobsTable;
  trash_items: TrashItemsTable;
  sites: SitesTable;
  site_post_failures: SitePostFailuresTable;
  events: EventsTable;
  app_passwords: AppPasswordsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  quota_usage: QuotaUsageTable;
  share_visits: ShareVisitsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  team_folders: TeamFoldersTable;
  people_shares: PeopleSharesTable;
  grantees: GranteesTable;
  shared_left: SharedLeftTable;
  two_factor: TwoFactorTable;
  oidc_requests: OidcRequestsTable;
  oidc_sessions: OidcSessionsTable;
  audit_log: AuditLogTable;
  file_jobs: FileJobsTable;
}

/**
 * The recent events of users, in the order the database numbered them: what the database event
 * bus hands between instances and replays to reconnecting streams (docs/jobs.md).
 */
export interface EventsTable {
  id: Generated<number>;
  user_id: number;
  /** The SSE event name (`job`, …). */
  type: string;
  /** JSON. */
  data: string;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** App passwords (docs/webdav.md): credentials for WebDAV and scripts, stored as a hash. */
export interface AppPasswordsTable {
  /** The public part of the password (`cab_<id>_<secret>`), used to find the row. */
  id: string;
  user_id: number;
  name: string;
  /** SHA-256 (hex) of the secret part: the secret is 256 random bits, so no slow hash is needed. */
  secret_hash: string;
  /** 1 when every write is refused. */
  read_only: number;
  /** Virtual folder of the user's scope the password is limited to; `/` for the whole scope. */
  folder: string;
  /** Milliseconds since the epoch. */
  created_at: number;
  last_used_at: number | null;
}

/** WebDAV dead properties (PROPPATCH), per file of the tree whoever's scope it is seen from. */
export interface DavPropertiesTable {
  /** `JSON.stringify([path, name])`: one key for `cabinet db copy` to page by. */
  id: string;
  /** The file's path from the served root (`/users/alice/notes.txt`). */
  path: string;
  /** `{namespace}local-name`. */
  name: string;
  /** The property element serialised as XML. */
  xml: string;
}

/** WebDAV locks when instances share the database (coordination/dav-locks.ts). */
export interface DavLocksTable {
  token: string;
  /** The locked path from the served root. */
  path: string;
  /** 1 for Depth: infinity. */
  deep: number;
  /** 1 for a shared lock, 0 for an exclusive one. */
  shared: number;
  /** The owner element the client sent, as XML ("" when none). */
  owner: string;
  user_id: number;
  timeout_seconds: number;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

/** One audited action (docs/audit.md); no foreign key: the record outlives the user. */
export interface AuditLogTable {
  id: Generated<number>;
  /** Milliseconds since the epoch. */
  at: number;
  /** 0 when nobody was signed in (a failed login, a public link). */
  user_id: number;
  username: string;
  action: string;
  target: string;
  /** The target's human name when the entry was written ('' when it has none). */
  target_name: Generated<string>;
  address: string;
  outcome: string;
  /** JSON object. */
  details: string;
}
