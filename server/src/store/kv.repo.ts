import type { Db } from './db.ts';

/** Small named JSON values: settings, the signing key. */
export class KvRepo {
  constructor(private readonly db: Db) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('kv')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /**
   * Stores `value` unless `key` already holds one, in one statement; returns the value that stands
   * (this one, or the one another instance stored first).
   */
  async setIfAbsent<T>(key: string, value: T): Promise<T> {
    await this.db
      .insertInto('kv')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get<T>(key)) as T;
  }

  async set(key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    await this.db
      .insertInto('kv')
      .values({ key, value: text })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
      .execute();
  }
}
