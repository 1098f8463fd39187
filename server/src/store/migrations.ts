import {
  sql,
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { engineOf } from './engine.ts';

/**
 * An integer primary key the database numbers. SQLite gets `integer primary key autoincrement`,
 * exactly what these migrations made before PostgreSQL was supported (ids are never reused);
 * PostgreSQL gets an identity column, which still accepts explicit ids (`cabinet db copy`).
 */
export function generatedId(
  db: Kysely<unknown>,
): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return engineOf(db) === 'postgres'
    ? (column) => column.primaryKey().generatedByDefaultAsIdentity()
    : (column) => column.primaryKey().autoIncrement();
}

/**
 * Migrations in code, run on every start for both engines. Append only: never edit a migration
 * that has shipped.
 */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('kv')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('shares')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('expire', 'bigint', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .addColumn('token', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .execute();
      await db.schema
        .createIndex('shares_user_path')
        .on('shares')
        .columns(['user_id', 'path'])
        .execute();
    },
  },
  '0002_upload_sessions': {
    async up(db: Kysely<unknown>) {
      // No foreign key to users: when a user is deleted, the expiry sweep must still find the
      // session to remove its staging file.
      await db.schema
        .createTable('upload_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull().unique())
        .addColumn('staging', 'text', (c) => c.notNull())
        .addColumn('length', 'bigint', (c) => c.notNull())
        .addColumn('override', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('upload_sessions_expires')
        .on('upload_sessions')
        .column('expires_at')
        .execute();
    },
  },
  '0003_share_links': {
    async up(db: Kysely<unknown>) {
      // Where the shared item really is (root-relative, symlinks followed): links follow their item
      // through moves and die with it, whoever moves or deletes it (docs/sharing.md).
      await db.schema
        .alterTable('shares')
        .addColumn('target', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .execute();
      await db.schema
        .alterTable('shares')
        .addColumn('download_limit', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('shares')
        .addColumn('downloads', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('shares')
        .addColumn('is_dir', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // File requests: upload-only links to a folder.
      await db.schema
        .alterTable('shares')
        .addColumn('is_request', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('shares_target').on('shares').column('target').execute();
    },
  },
  '0004_command_runs': {
    async up(db: Kysely<unknown>) {
      // No foreign key to users: the record of what a deleted user ran is worth keeping.
      await db.schema
        .createTable('command_runs')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('line', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('exit_code', 'integer')
        .addColumn('duration_ms', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('command_runs_started')
        .on('command_runs')
        .column('started_at')
        .execute();
    },
  },
  '0005_session_details': {
    async up(db: Kysely<unknown>) {
      // What a user needs to recognise a session in the Sessions card: the browser, where it
      // signed in from, and when it was last used.
      await db.schema
        .alterTable('sessions')
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(sql`''`))
        .execute();
      await db.schema.alterTable('sessions').addColumn('last_used_at', 'bigint').execute();
    },
  },
  '0006_coordination': {
    async up(db: Kysely<unknown>) {
      // What several instances over one database share so that they behave as one: attempt
      // counts, leases (named locks, upload leases) and the scheduler's jobs (docs/runtime.md).
      await db.schema
        .createTable('attempts')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('attempts_pk', ['scope', 'key'])
        .execute();
      await db.schema.createIndex('attempts_reset').on('attempts').column('reset_at').execute();
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('takeover', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('leases_holder').on('leases').column('holder').execute();
      await db.schema
        .createTable('scheduled_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        // Unique but nullable: both engines allow any number of NULL keys.
        .addColumn('key', 'text', (c) => c.unique())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('interval_ms', 'bigint')
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo(sql`'null'`))
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_until', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('failed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scheduled_jobs_run_at')
        .on('scheduled_jobs')
        .column('run_at')
        .execute();
    },
  },
  '0007_events': {
    async up(db: Kysely<unknown>) {
      // The recent events of every user (job progress, …) that instances hand each other and that
      // a reconnecting event stream replays after its Last-Event-ID (docs/jobs.md). Only minutes
      // of rows are kept.
      await db.schema
        .createTable('events')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_user').on('events').columns(['user_id', 'id']).execute();
    },
  },
  '0008_sites': {
    async up(db: Kysely<unknown>) {
      // The static-site area (docs/sites.md): the sites administrators declare, and the last
      // failed scheduled publication of a post, shown on it until it is published again.
      await db.schema
        .createTable('sites')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('folder', 'text', (c) => c.notNull())
        .addColumn('generator', 'text', (c) => c.notNull())
        .addColumn('output', 'text', (c) => c.notNull())
        .addColumn('serve', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('users', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('site_post_failures')
        // `<site>:<path>`: one key column, so `cabinet db copy` pages through it in order.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('log', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0009_trash': {
    async up(db: Kysely<unknown>) {
      // Deleted items kept in the data folder until restored, deleted for good or purged
      // (docs/trash.md). No foreign key to users: a deleted user's trash is still purged.
      await db.schema
        .createTable('trash_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('is_dir', 'integer', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_by', 'integer', (c) => c.notNull())
        .addColumn('shares', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
        .execute();
      await db.schema
        .createIndex('trash_items_user')
        .on('trash_items')
        .columns(['user_id', 'deleted_at'])
        .execute();
      await db.schema
        .createIndex('trash_items_deleted')
        .on('trash_items')
        .column('deleted_at')
        .execute();
    },
  },
  '0010_webdav_app_passwords': {
    async up(db: Kysely<unknown>) {
      // App passwords, WebDAV dead properties and WebDAV locks (docs/webdav.md).
      await db.schema
        .createTable('app_passwords')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('folder', 'text', (c) => c.notNull().defaultTo(sql`'/'`))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('app_passwords_user')
        .on('app_passwords')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('dav_properties')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('xml', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('dav_properties_path')
        .on('dav_properties')
        .column('path')
        .execute();
      await db.schema
        .createTable('dav_locks')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('deep', 'integer', (c) => c.notNull())
        .addColumn('shared', 'integer', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dav_locks_path').on('dav_locks').column('path').execute();
    },
  },
  '0011_quota_usage': {
    async up(db: Kysely<unknown>) {
      // Quota usage per scope folder, adjusted by every write Cabinet makes and recounted by the
      // reconcile job (docs/quotas.md). Users whose scope is the same folder share one row.
      await db.schema
        .createTable('quota_usage')
        .addColumn('scope', 'text', (c) => c.primaryKey())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addColumn('counted_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0012_share_visits': {
    async up(db: Kysely<unknown>) {
      // One row per share-page visit whose download counted (docs/sharing.md).
      await db.schema
        .createTable('share_visits')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('share_visits_expires_at')
        .on('share_visits')
        .column('expires_at')
        .execute();
    },
  },
  '0013_two_factor': {
    async up(db: Kysely<unknown>) {
      // Two-factor sign-in (docs/two-factor.md): one row per user who started enrolling. The
      // secret is encrypted with a key derived from the signing key; last_step is the TOTP time
      // step of the last accepted code, so a code is refused a second time on every instance.
      await db.schema
        .createTable('two_factor')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', 'bigint')
        .addColumn('recovery_codes', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // A session opened while the admin requires two-factor sign-in and the user has none may
      // only enrol (and sign out) until enrolment clears the flag.
      await db.schema
        .alterTable('sessions')
        .addColumn('enrol_only', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0014_oidc': {
    async up(db: Kysely<unknown>) {
      // Single sign-on (docs/sso.md). oidc_requests holds what lives minutes and is taken once:
      // a sign-in's state, nonce and PKCE verifier between the redirect to the provider and its
      // callback, and the one-time code that hands the web app its session. Any instance may
      // serve the callback, so none of it lives in memory.
      await db.schema
        .createTable('oidc_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oidc_requests_expires_at')
        .on('oidc_requests')
        .column('expires_at')
        .execute();
      // The provider's ID token of a session opened by single sign-on, as the hint of the
      // provider's logout; it goes with its session.
      await db.schema
        .createTable('oidc_sessions')
        .addColumn('session_id', 'text', (c) =>
          c.primaryKey().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('id_token', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0015_audit_log': {
    async up(db: Kysely<unknown>) {
      // Who did what, from where, and how it ended (docs/audit.md). No foreign key to users: the
      // record of what a deleted user did is kept, with the name they had.
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      // Listing pages by id (newest first) and purging by time.
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
    },
  },
  '0016_file_jobs': {
    async up(db: Kysely<unknown>) {
      // Background copy/move/delete jobs of users (docs/jobs.md).
      await db.schema
        .createTable('file_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('on_conflict', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('item_index', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('item_target', 'text')
        .addColumn('item_override', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_index', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('answer', 'text')
        .addColumn('question', 'text')
        .addColumn('files_total', 'bigint')
        .addColumn('files_done', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes_total', 'bigint')
        .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('rate', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('current', 'text')
        .addColumn('error_status', 'integer')
        .addColumn('error_message', 'text')
        .addColumn('runner', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('file_jobs_user_created')
        .on('file_jobs')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema.createIndex('file_jobs_state').on('file_jobs').column('state').execute();
    },
  },
  '0017_file_job_address': {
    async up(db: Kysely<unknown>) {
      // Where a job was asked from: the audit log records its deletes and replacements with it
      // (docs/audit.md), whichever instance runs them and however long after.
      await db.schema
        .alterTable('file_jobs')
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '0018_instances': {
    async up(db: Kysely<unknown>) {
      // Running instances by id, each with a lease it renews while alive: a starting instance
      // removes the temp files of another only once that one's lease expired (docs/runtime.md).
      await db.schema
        .createTable('instances')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        // Boot id and PID namespace: where `pid` can be checked (null where it cannot).
        .addColumn('pid_space', 'text')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0019_audit_names_job_counts': {
    async up(db: Kysely<unknown>) {
      // The human name of an audited target as it was when the entry was written (a user's name,
      // a trashed item's path): the entry still reads right once the target is renamed or gone.
      await db.schema
        .alterTable('audit_log')
        .addColumn('target_name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // How many of a job's items a conflict answer skipped or replaced, for its closing line.
      await db.schema
        .alterTable('file_jobs')
        .addColumn('items_skipped', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('file_jobs')
        .addColumn('items_replaced', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0020_teams': {
    async up(db: Kysely<unknown>) {
      // Teams (docs/teams.md): groups and their members, team folders an administrator grants,
      // items a user shares with people, who each grant is for, and what recipients left.
      await db.schema
        .createTable('groups')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('name', 'text', (c) => c.notNull())
        // The name folded to lower case: unique, so two groups never differ by case alone.
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .addColumn('source', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('group_members')
        // Its own id: `cabinet db copy` pages every table by a unique key.
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addUniqueConstraint('group_members_pair', ['group_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('group_members_user')
        .on('group_members')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('team_folders')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('name', 'text', (c) => c.notNull())
        // Root-relative, leading slash: where the folder really is.
        .addColumn('path', 'text', (c) => c.notNull())
        // GrantAccess as bits: create 1, rename 2, modify 4, delete 8, share 16.
        .addColumn('access', 'integer', (c) => c.notNull())
        .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('people_shares')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        // The owner's scope path, and the root-relative real path the share follows (as links).
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('is_dir', 'integer', (c) => c.notNull())
        .addColumn('access', 'integer', (c) => c.notNull())
        .addColumn('expire', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('people_shares_owner')
        .on('people_shares')
        .column('owner_id')
        .execute();
      await db.schema
        .createTable('grantees')
        .addColumn('id', 'integer', generatedId(db))
        // `team` or `people`, and the team folder's or the people share's id.
        .addColumn('grant_kind', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'integer', (c) => c.notNull())
        .addColumn('grantee_kind', 'text', (c) => c.notNull())
        .addColumn('grantee_id', 'integer', (c) => c.notNull())
        .addUniqueConstraint('grantees_one', [
          'grant_kind',
          'grant_id',
          'grantee_kind',
          'grantee_id',
        ])
        .execute();
      await db.schema
        .createIndex('grantees_by_grantee')
        .on('grantees')
        .columns(['grantee_kind', 'grantee_id'])
        .execute();
      // A recipient who left a grant they hold through a group: it stays hidden for them.
      await db.schema
        .createTable('shared_left')
        .addColumn('id', 'integer', generatedId(db))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('grant_kind', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'integer', (c) => c.notNull())
        .addUniqueConstraint('shared_left_one', ['user_id', 'grant_kind', 'grant_id'])
        .execute();
    },
  },
};

/** The names of every migration this code has, in the order they run (the schema versions). */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
