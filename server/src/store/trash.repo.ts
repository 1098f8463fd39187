import type { Selectable } from 'kysely';
import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import type { TrashItemsTable } from './schema.ts';
import type { ShareRecord } from './shares.repo.ts';

/** One trashed item as stored. */
export interface TrashRecord {
  id: string;
  userId: number;
  name: string;
  /** Owner-scope virtual path it was deleted from. */
  path: string;
  /** Root-relative real path it was deleted from. */
  target: string;
  isDir: boolean;
  size: number;
  /** Milliseconds since the epoch. */
  deletedAt: number;
  deletedBy: number;
  /** Share links of the item, suspended while it is trashed. */
  shares: ShareRecord[];
}

function toRecord(row: Selectable<TrashItemsTable>): TrashRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    name: row.name,
    path: row.path,
    target: row.target,
    isDir: Number(row.is_dir) === 1,
    size: Number(row.size),
    deletedAt: Number(row.deleted_at),
    deletedBy: Number(row.deleted_by),
    shares: JSON.parse(row.shares) as ShareRecord[],
  };
}

/** The only code that reads and writes trash rows. */
export class TrashRepo {
  constructor(private readonly db: Db) {}

  async insert(item: TrashRecord): Promise<void> {
    await this.db
      .insertInto('trash_items')
      .values({
        id: item.id,
        user_id: item.userId,
        name: item.name,
        path: item.path,
        target: item.target,
        is_dir: item.isDir ? 1 : 0,
        size: item.size,
        deleted_at: item.deletedAt,
        deleted_by: item.deletedBy,
        shares: JSON.stringify(item.shares),
      })
      .execute();
  }

  async get(id: string): Promise<TrashRecord | undefined> {
    if (!isStorableText(id)) return undefined;
    const row = await this.db
      .selectFrom('trash_items')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** One user's items (every user's when `userId` is undefined), newest first. */
  async list(userId?: number): Promise<TrashRecord[]> {
    if (userId !== undefined && !isStorableInteger(userId)) return [];
    let query = this.db.selectFrom('trash_items').selectAll();
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const rows = await query.orderBy('deleted_at', 'desc').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** Items one user deleted (in their own trash or, inside a grant, in its owner's), newest first. */
  async deletedBy(userId: number): Promise<TrashRecord[]> {
    if (!isStorableInteger(userId)) return [];
    const rows = await this.db
      .selectFrom('trash_items')
      .selectAll()
      .where('deleted_by', '=', userId)
      .orderBy('deleted_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /** Items deleted before `time` (milliseconds), oldest first. */
  async deletedBefore(time: number): Promise<TrashRecord[]> {
    const rows = await this.db
      .selectFrom('trash_items')
      .selectAll()
      .where('deleted_at', '<', time)
      .orderBy('deleted_at')
      .execute();
    return rows.map(toRecord);
  }

  /** The users holding anything in the trash. */
  async owners(): Promise<number[]> {
    const rows = await this.db.selectFrom('trash_items').select('user_id').distinct().execute();
    return rows.map((row) => Number(row.user_id));
  }

  /**
   * Removes a row; true when this call removed it (two instances purging or restoring the same
   * item: only one of them goes on to touch its files).
   */
  async remove(id: string): Promise<boolean> {
    if (!isStorableText(id)) return false;
    const result = await this.db.deleteFrom('trash_items').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
