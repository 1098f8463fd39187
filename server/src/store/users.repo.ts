import { toLocaleCode, type User } from '@cabinet/protocol';
import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import { inTransaction } from './db-transaction.ts';
import { bumpGrantsGeneration } from './grants-generation.ts';

/** A user as the server holds it: the wire fields plus the password hash, never sent out. */
export interface UserRecord extends Omit<User, 'password'> {
  passwordHash: string;
  /** Milliseconds of the last change; older tokens are asked to renew. */
  updatedAt: number;
}

type Profile = Omit<UserRecord, 'id' | 'username' | 'passwordHash' | 'updatedAt'>;

function toRecord(row: {
  id: number;
  username: string;
  password_hash: string;
  profile: string;
  updated_at: number | string;
}): UserRecord {
  const profile = JSON.parse(row.profile) as Profile;
  return {
    ...profile,
    // Accounts imported from the reference may hold its spellings ("pt_BR", "zhCN").
    locale: toLocaleCode(profile.locale ?? '') ?? '',
    id: Number(row.id),
    username: row.username,
    passwordHash: row.password_hash,
    updatedAt: Number(row.updated_at),
  };
}

function toProfile(user: Omit<UserRecord, 'id' | 'updatedAt'>): string {
  const { username: _u, passwordHash: _p, ...profile } = user as UserRecord;
  delete (profile as Partial<UserRecord>).id;
  delete (profile as Partial<UserRecord>).updatedAt;
  return JSON.stringify(profile);
}

/** The fields of an owner that the shares they made with people are mounted by, as one key. */
function grantFields(user: Omit<UserRecord, 'updatedAt'>): string {
  return JSON.stringify([user.username, user.scope, user.rules, user.perm, user.hideDotfiles]);
}

/** The only code that reads and writes user rows. */
export class UsersRepo {
  constructor(private readonly db: Db) {}

  async list(): Promise<UserRecord[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('id').execute();
    return rows.map(toRecord);
  }

  async byId(id: number): Promise<UserRecord | undefined> {
    if (!isStorableInteger(id)) return undefined;
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Several users by id in one query (the owners of the grants a view composes). */
  async byIds(ids: readonly number[]): Promise<UserRecord[]> {
    const wanted = [...new Set(ids)].filter(isStorableInteger);
    if (wanted.length === 0) return [];
    const rows = await this.db.selectFrom('users').selectAll().where('id', 'in', wanted).execute();
    return rows.map(toRecord);
  }

  /** Every user's id and username, by username (type-ahead over names). */
  async names(): Promise<{ id: number; username: string }[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'username'])
      .orderBy('username')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), username: row.username }));
  }

  async byUsername(username: string): Promise<UserRecord | undefined> {
    if (!isStorableText(username)) return undefined;
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Inserts a user and returns its id. A taken username throws (unique index). */
  async insert(user: Omit<UserRecord, 'id' | 'updatedAt'>): Promise<number> {
    const result = await this.db
      .insertInto('users')
      .values({
        username: user.username,
        password_hash: user.passwordHash,
        profile: toProfile(user),
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(result.id);
  }

  /** Replaces a user's row and marks it changed. */
  async update(user: Omit<UserRecord, 'updatedAt'>): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const before = await tx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirst();
      // What an owner's shares with people are judged by (docs/teams.md): a change of it is a
      // change of other users' grants.
      if (before && grantFields(toRecord(before)) !== grantFields(user)) {
        await bumpGrantsGeneration(tx);
      }
      await tx
        .updateTable('users')
        .set({
          username: user.username,
          password_hash: user.passwordHash,
          profile: toProfile(user),
          updated_at: Date.now(),
        })
        .where('id', '=', user.id)
        .execute();
    });
  }

  async remove(id: number): Promise<boolean> {
    if (!isStorableInteger(id)) return false;
    return inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      const result = await tx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** True when a store error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === '23505' ||
    /UNIQUE constraint/i.test(e?.message ?? '')
  );
}
