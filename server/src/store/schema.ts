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

/** Two-factor sign-in of one user (docs/two-factor.md). */
export interface TwoFactorTable {
  user_id: number;
  /** The TOTP secret, AES-256-GCM encrypted (see services/auth/totp-secret.ts). */
  secret: string;
  /** 0 while enrolment waits for its first code, 1 once confirmed. */
  enabled: Generated<number>;
  /** TOTP time step of the last accepted code; codes of this step or earlier are refused. */
  last_step: number | null;
  /** JSON array of SHA-256 hex digests of the unused recovery codes. */
  recovery_codes: Generated<string>;
  created_at: number;
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
  scheduled_jobs: ScheduledJobsTable;
  two_factor: TwoFactorTable;
}
