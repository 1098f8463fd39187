import type { Selectable } from 'kysely';
import type { Db } from './db.ts';
import type { UploadSessionsTable } from './schema.ts';

/** A resumable upload in progress, as the tus service sees it. */
export interface UploadSession {
  id: string;
  userId: number;
  /** User-visible canonical path of the target (for logs and permission re-checks). */
  path: string;
  /**
   * Identity of the target file, issued by ScopedFs (its UploadPlace): one upload per file. Opaque
   * to services, which only store it, compare it and hand it back.
   */
  target: string;
  /** The staging file, issued by ScopedFs with `target`; its size on disk is the upload's offset. */
  staging: string;
  /** Declared total size in bytes. */
  length: number;
  /** The client asked to replace an existing file (`override=true` at creation). */
  override: boolean;
  /** Upload-Metadata as sent at creation ("" when none), echoed by HEAD. */
  metadata: string;
  /**
   * The file is in place. The record stays until expiry so that a client whose last reply was lost
   * learns from HEAD that the upload is done instead of starting over.
   */
  completed: boolean;
  createdAt: number;
  /** Milliseconds since the epoch after which the upload is abandoned. */
  expiresAt: number;
}

function toSession(row: Selectable<UploadSessionsTable>): UploadSession {
  return {
    id: row.id,
    userId: Number(row.user_id),
    path: row.path,
    target: row.target,
    staging: row.staging,
    length: Number(row.length),
    override: Number(row.override) === 1,
    metadata: row.metadata,
    completed: Number(row.completed) === 1,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * Upload sessions live in the database so that they survive restarts and are shared by every
 * instance using the same database; the bytes themselves live in the staging file.
 */
export class UploadsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a session unless another one already targets the same file. Returns false on that
   * conflict, so that two simultaneous creations cannot both win.
   */
  async insert(session: UploadSession): Promise<boolean> {
    const result = await this.db
      .insertInto('upload_sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        path: session.path,
        target: session.target,
        staging: session.staging,
        length: session.length,
        override: session.override ? 1 : 0,
        metadata: session.metadata,
        completed: session.completed ? 1 : 0,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .onConflict((oc) => oc.column('target').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async byId(id: string): Promise<UploadSession | undefined> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toSession(row);
  }

  /** The session writing to a target (UploadPlace.target), expired or not. */
  async byTarget(target: string): Promise<UploadSession | undefined> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('target', '=', target)
      .executeTakeFirst();
    return row && toSession(row);
  }

  /** Pushes the expiry of a session forward (activity seen). */
  async touch(id: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  /** Marks an upload as done (file in place) and sets how long its record is kept. */
  async complete(id: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ completed: 1, expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  /** Removes a session; true when this call removed it (another instance may have been first). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('upload_sessions')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Removes a session only if it is still expired at `now`. The sweeper uses it to claim a
   * session, so that an upload touched meanwhile (on any instance) is never swept.
   */
  async deleteIfExpired(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('upload_sessions')
      .where('id', '=', id)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Sessions whose expiry has passed, oldest first. */
  async listExpired(now: number, limit = 500): Promise<UploadSession[]> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toSession);
  }
}
