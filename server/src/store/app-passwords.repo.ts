import type { Selectable } from 'kysely';
import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import type { AppPasswordsTable } from './schema.ts';

/** One app password as stored: never the secret, only its hash. */
export interface AppPasswordRecord {
  id: string;
  userId: number;
  name: string;
  secretHash: string;
  readOnly: boolean;
  /** Virtual folder of the user's scope; `/` for the whole scope. */
  folder: string;
  createdAt: number;
  lastUsedAt: number | null;
}

function toRecord(row: Selectable<AppPasswordsTable>): AppPasswordRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    name: row.name,
    secretHash: row.secret_hash,
    readOnly: Number(row.read_only) === 1,
    folder: row.folder,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** The only code that reads and writes app password rows. */
export class AppPasswordsRepo {
  constructor(private readonly db: Db) {}

  async create(record: AppPasswordRecord): Promise<void> {
    await this.db
      .insertInto('app_passwords')
      .values({
        id: record.id,
        user_id: record.userId,
        name: record.name,
        secret_hash: record.secretHash,
        read_only: record.readOnly ? 1 : 0,
        folder: record.folder,
        created_at: record.createdAt,
        last_used_at: record.lastUsedAt,
      })
      .execute();
  }

  async get(id: string): Promise<AppPasswordRecord | undefined> {
    if (!isStorableText(id)) return undefined;
    const row = await this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A user's app passwords, newest first. */
  async listForUser(userId: number): Promise<AppPasswordRecord[]> {
    if (!isStorableInteger(userId)) return [];
    const rows = await this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    return rows.map(toRecord).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  }

  /** Records a use (callers limit how often). */
  async touch(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('app_passwords')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Removes one; true when it existed. */
  async remove(id: string): Promise<boolean> {
    if (!isStorableText(id)) return false;
    const result = await this.db
      .deleteFrom('app_passwords')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
