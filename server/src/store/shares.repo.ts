import { canonicalPath, isVirtualInside } from '../fs/canonical-path.ts';
import type { Db } from './db.ts';

/** A share link as stored (secrets included; never sent out as is). */
export interface ShareRecord {
  hash: string;
  /** Owner-scope path as requested; folders may keep a trailing `/`. */
  path: string;
  userId: number;
  /** Unix seconds; 0 = never expires. */
  expire: number;
  passwordHash: string;
  token: string;
}

/** The only code that reads and writes share rows. */
export class SharesRepo {
  constructor(private readonly db: Db) {}

  /** Every share of one user. */
  async byUser(userId: number): Promise<ShareRecord[]> {
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('expire')
      .execute();
    return rows.map((row) => ({
      hash: row.hash,
      path: row.path,
      userId: Number(row.user_id),
      expire: Number(row.expire),
      passwordHash: row.password_hash,
      token: row.token,
    }));
  }

  /**
   * Deletes a user's shares of `path` and of everything below it, on folder boundaries: deleting
   * `/docs` removes shares of `/docs`, `/docs/` and `/docs/a`, never `/docs-old` (GHSA-pp88-jhwj-5qh5).
   * Compared on canonical paths (case-folded when the file system folds case). Returns the count.
   */
  async removeAtOrUnder(userId: number, path: string, foldCase = false): Promise<number> {
    const fold = (value: string) => (foldCase ? value.toLowerCase() : value);
    const canonical = (value: string) => {
      try {
        return fold(canonicalPath(value).path);
      } catch {
        return undefined; // A stored path with a NUL byte can never name a real file.
      }
    };
    const target = canonical(path);
    if (target === undefined) return 0;
    const doomed = (await this.byUser(userId))
      .filter((share) => {
        const sharePath = canonical(share.path);
        return sharePath !== undefined && isVirtualInside(sharePath, target);
      })
      .map((share) => share.hash);
    if (doomed.length === 0) return 0;
    const result = await this.db
      .deleteFrom('shares')
      .where('user_id', '=', userId)
      .where('hash', 'in', doomed)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
