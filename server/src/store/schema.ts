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
}

export interface SharesTable {
  hash: string;
  path: string;
  user_id: number;
  expire: number;
  password_hash: string;
  token: string;
}

export interface Database {
  users: UsersTable;
  kv: KeyValueTable;
  sessions: SessionsTable;
  shares: SharesTable;
}
