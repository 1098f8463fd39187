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
}

export interface SharesTable {
  hash: string;
  path: string;
  user_id: number;
  expire: number;
  password_hash: string;
  token: string;
}

/** Resumable (tus) uploads in progress; the offset is the staging file's size on disk. */
export interface UploadSessionsTable {
  id: string;
  user_id: number;
  /** The user-visible canonical path of the upload's target. */
  path: string;
  /** Real absolute path of the target: one upload per target at a time. */
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

export interface Database {
  users: UsersTable;
  kv: KeyValueTable;
  sessions: SessionsTable;
  shares: SharesTable;
  upload_sessions: UploadSessionsTable;
}
