import { sql, type Selectable } from 'kysely';
import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import type { SharesTable } from './schema.ts';

/** A share link as stored (the password hash included; never sent out as is). */
export interface ShareRecord {
  hash: string;
  /** Owner-scope path as requested; folders may keep a trailing `/`. */
  path: string;
  userId: number;
  /** Unix seconds; 0 = never expires. */
  expire: number;
  /** Argon2 hash of the link's password, '' when it has none. */
  passwordHash: string;
  /** Root-relative real path of the shared item (see migration 0003). */
  target: string;
  /** Downloads allowed; 0 = no limit. */
  downloadLimit: number;
  downloads: number;
  isDir: boolean;
  /** A file request: visitors upload into the folder, never list or download. */
  isRequest: boolean;
}

function toRecord(row: Selectable<SharesTable>): ShareRecord {
  return {
    hash: row.hash,
    path: row.path,
    userId: Number(row.user_id),
    expire: Number(row.expire),
    passwordHash: row.password_hash,
    target: row.target,
    downloadLimit: Number(row.download_limit),
    downloads: Number(row.downloads),
    isDir: Number(row.is_dir) === 1,
    isRequest: Number(row.is_request) === 1,
  };
}

/** The only code that reads and writes share rows. */
export class SharesRepo {
  constructor(private readonly db: Db) {}

  /** Every share, by owner then expiry. */
  async all(): Promise<ShareRecord[]> {
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .orderBy('user_id')
      .orderBy('expire')
      .execute();
    return rows.map(toRecord);
  }

  /** Every share of one user. */
  async byUser(userId: number): Promise<ShareRecord[]> {
    if (!isStorableInteger(userId)) return [];
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('expire')
      .execute();
    return rows.map(toRecord);
  }

  /** One share by its hash. */
  async get(hash: string): Promise<ShareRecord | undefined> {
    if (!isStorableText(hash)) return undefined;
    const row = await this.db
      .selectFrom('shares')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Shares whose item is `target` or lies below it (root-relative real paths). */
  async atOrUnderTarget(target: string): Promise<ShareRecord[]> {
    // Everything lies under the root. (No `where true`: SQLite cannot bind a boolean.)
    if (target === '/') return this.all();
    if (!isStorableText(target)) return [];
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('target', '=', target),
          // Folder boundary: `/docs/` never matches `/docs-old` (GHSA-pp88-jhwj-5qh5). No LIKE:
          // its wildcards and case folding differ between SQLite and PostgreSQL.
          eb(sql<string>`substr(target, 1, ${Array.from(target).length + 1})`, '=', `${target}/`),
        ]),
      )
      .execute();
    return rows.map(toRecord);
  }

  async insert(share: ShareRecord): Promise<void> {
    await this.db
      .insertInto('shares')
      .values({
        hash: share.hash,
        path: share.path,
        user_id: share.userId,
        expire: share.expire,
        password_hash: share.passwordHash,
        token: '',
        target: share.target,
        download_limit: share.downloadLimit,
        downloads: share.downloads,
        is_dir: share.isDir ? 1 : 0,
        is_request: share.isRequest ? 1 : 0,
      })
      .execute();
  }

  /** Points a share at its item's new place. */
  async relocate(hash: string, path: string, target: string): Promise<void> {
    await this.db.updateTable('shares').set({ path, target }).where('hash', '=', hash).execute();
  }

  /**
   * Counts one download unless the limit is reached, in one statement so that two concurrent
   * downloads cannot both take the last one. Returns false when the limit was already reached.
   */
  async takeDownload(hash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('shares')
      .set({ downloads: sql`downloads + 1` })
      .where('hash', '=', hash)
      .where((eb) =>
        eb.or([eb('download_limit', '=', 0), eb('downloads', '<', eb.ref('download_limit'))]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Counts the download of one share-page visit once: the visit's first call records it and takes
   * a download from the link (as takeDownload), later calls of the same visit take nothing. Both
   * happen in one transaction, so concurrent requests of one visit count once, on every instance.
   * Answers 'counted', 'already' (the visit counted before) or 'used-up' (nothing recorded).
   */
  async takeVisitDownload(
    hash: string,
    visitId: string,
    expiresAt: number,
    now: number,
  ): Promise<'counted' | 'already' | 'used-up'> {
    const usedUp = new Error('used up');
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('share_visits').where('expires_at', '<=', now).execute();
        const inserted = await trx
          .insertInto('share_visits')
          .values({ id: visitId, hash, expires_at: expiresAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return 'already';
        const taken = await trx
          .updateTable('shares')
          .set({ downloads: sql`downloads + 1` })
          .where('hash', '=', hash)
          .where((eb) =>
            eb.or([eb('download_limit', '=', 0), eb('downloads', '<', eb.ref('download_limit'))]),
          )
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) > 0) return 'counted';
        throw usedUp; // Rolls the visit back: it never got its copy.
      });
    } catch (error) {
      if (error === usedUp) return 'used-up';
      throw error;
    }
  }

  /** Whether the visit `visitId` of link `hash` has had its download counted. */
  async visitCounted(hash: string, visitId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('share_visits')
      .select('id')
      .where('id', '=', visitId)
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row !== undefined;
  }

  async remove(hashes: string[]): Promise<number> {
    hashes = hashes.filter(isStorableText);
    if (hashes.length === 0) return 0;
    const result = await this.db
      .deleteFrom('shares')
      .where('hash', 'in', hashes)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
