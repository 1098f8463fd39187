import type { Database } from './schema.ts';

/** How `cabinet db copy` reads and writes one table. */
export interface TableCopySpec<Columns> {
  /** The primary key: rows are read in its order, a page at a time. */
  key: keyof Columns & string;
  /** An integer id the database numbers: PostgreSQL's identity sequence is moved past the copy. */
  identity?: keyof Columns & string;
}

/**
 * Every table of Cabinet's state, parents before children (sessions and shares refer to users), as
 * `cabinet db copy` copies them. The type asks for exactly the tables of `Database`: a table added
 * to the schema fails the type check until it has its line here.
 */
export const STATE_TABLES = {
  users: { key: 'id', identity: 'id' },
  kv: { key: 'key' },
  sessions: { key: 'id' },
  shares: { key: 'hash' },
  upload_sessions: { key: 'id' },
  command_runs: { key: 'id', identity: 'id' },
  scheduled_jobs: { key: 'id' },
  sites: { key: 'name' },
  site_post_failures: { key: 'id' },
  trash_items: { key: 'id' },
  app_passwords: { key: 'id' },
  dav_properties: { key: 'id' },
  quota_usage: { key: 'scope' },
  share_visits: { key: 'id' },
  two_factor: { key: 'user_id' },
  oidc_sessions: { key: 'session_id' },
  audit_log: { key: 'id', identity: 'id' },
  file_jobs: { key: 'id' },
  groups: { key: 'id', identity: 'id' },
  group_members: { key: 'id', identity: 'id' },
  team_folders: { key: 'id', identity: 'id' },
  people_shares: { key: 'id', identity: 'id' },
  grantees: { key: 'id', identity: 'id' },
  shared_left: { key: 'id', identity: 'id' },
} as const satisfies {
  [T in Exclude<keyof Database, TransientTable>]: TableCopySpec<Database[T]>;
};

/**
 * Tables whose rows are only true while instances run: attempt windows (a minute or so of failed
 * logins) and leases held by running instances. A copy is made with the instances stopped, so
 * these are emptied on the target instead of copied. Events are minutes of live notifications.
 */
export const TRANSIENT_TABLES = [
  'attempts',
  'leases',
  'instances',
  'events',
  'dav_locks',
  /** Sign-ins in progress and one-time codes (docs/sso.md): minutes long. */
  'oidc_requests',
] as const;
type TransientTable = (typeof TRANSIENT_TABLES)[number];

export type StateTable = keyof typeof STATE_TABLES;

/** The table names in copy order. */
export const STATE_TABLE_NAMES = Object.keys(STATE_TABLES) as StateTable[];
