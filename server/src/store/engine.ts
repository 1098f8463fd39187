import { PostgresAdapter, type Kysely } from 'kysely';

/** The two databases Cabinet runs on. */
export type Engine = 'sqlite' | 'postgres';

/** True when the `database` option names a PostgreSQL server rather than an SQLite file. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/**
 * The engine a Kysely instance talks to, read from its dialect's adapter, so that migrations and
 * the few engine-specific statements need no extra parameter.
 */
export function engineOf<DB>(db: Kysely<DB>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * `integer` columns (ids, user ids) hold 32 bits on PostgreSQL; SQLite's hold 64 but Cabinet never
 * numbers that far. An id outside the 32-bit range names no row, so lookups answer "none" on both
 * engines rather than letting PostgreSQL reject the statement.
 */
export function isStorableInteger(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
}

/**
 * PostgreSQL's text cannot hold U+0000, so no stored key contains it: a lookup by such a key
 * answers "none" on both engines rather than letting PostgreSQL reject the statement.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\0');
}

/**
 * Free text to record (a command line, a path as typed) with each U+0000 shown as U+2400 (␀), the
 * same on both engines: PostgreSQL's text cannot hold U+0000 and would refuse the whole row.
 */
export function recordableText(value: string): string {
  return value.replaceAll('\0', '\u2400');
}
