import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from './db.ts';
import { engineOf } from './engine.ts';
import { STATE_TABLES, STATE_TABLE_NAMES, TRANSIENT_TABLES, type StateTable } from './tables.ts';

/** Rows per read and per insert: well under both engines' limits on bound parameters. */
const PAGE_ROWS = 500;

/** Rows of one table in the source and, after the copy, in the target. */
export interface CopiedTable {
  table: StateTable;
  source: number;
  target: number;
}

/** The target already holds an installation and `force` was not given. */
export class TargetNotEmptyError extends Error {
  constructor(readonly users: number) {
    super(
      `the target already holds ${users} user${users === 1 ? '' : 's'}; give --force to replace its contents`,
    );
  }
}

// Tables are named at run time here, so the typed schema cannot check the statements.
type Row = Record<string, unknown>;
type LooseDb = Kysely<Record<string, Row>>;
type LooseTx = Transaction<Record<string, Row>>;

async function countRows(db: LooseDb | LooseTx, table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Copies one table a page at a time in key order; returns the rows copied. */
async function copyTable(from: LooseTx, to: LooseTx, table: StateTable): Promise<number> {
  const { key } = STATE_TABLES[table];
  let copied = 0;
  let last: unknown;
  for (;;) {
    let query = from.selectFrom(table).selectAll().orderBy(key).limit(PAGE_ROWS);
    if (last !== undefined) query = query.where(key, '>', last);
    const rows = await query.execute();
    if (rows.length === 0) return copied;
    await to.insertInto(table).values(rows).execute();
    copied += rows.length;
    last = rows[rows.length - 1]![key];
    if (rows.length < PAGE_ROWS) return copied;
  }
}

/** The tables with an id the database numbers, and that column. */
function identityColumns(): [StateTable, string][] {
  return STATE_TABLE_NAMES.flatMap((table) => {
    const spec = STATE_TABLES[table];
    return 'identity' in spec ? [[table, spec.identity] as [StateTable, string]] : [];
  });
}

/**
 * The highest id a table has handed out: its counter (SQLite's AUTOINCREMENT row, PostgreSQL's
 * identity sequence), or the largest id present when that is higher.
 */
async function highestId(db: LooseTx, table: string, column: string): Promise<number> {
  const counter =
    engineOf(db) === 'postgres'
      ? sql<{ n: number | null }>`select pg_sequence_last_value(
          pg_get_serial_sequence(${table}, ${column})::regclass) as n`
      : sql<{ n: number | null }>`select seq as n from sqlite_sequence where name = ${table}`;
  const largest = sql<{
    n: number | null;
  }>`select max(${sql.ref(column)}) as n from ${sql.table(table)}`;
  const counted = (await counter.execute(db)).rows[0]?.n;
  const present = (await largest.execute(db)).rows[0]?.n;
  return Math.max(Number(counted ?? 0), Number(present ?? 0));
}

/**
 * Sets each id counter of the target to the source's, so that the copy never hands out an id the
 * source already did: a new account must not inherit the id of a deleted one, which its command
 * runs and uploads still name.
 */
async function carryIdCounters(from: LooseTx, to: LooseTx): Promise<void> {
  for (const [table, column] of identityColumns()) {
    const highest = await highestId(from, table, column);
    if (engineOf(to) === 'postgres') {
      await sql`select setval(pg_get_serial_sequence(${table}, ${column}), ${highest + 1}, false)`.execute(
        to,
      );
    } else {
      await sql`delete from sqlite_sequence where name = ${table}`.execute(to);
      if (highest > 0) {
        await sql`insert into sqlite_sequence (name, seq) values (${table}, ${highest})`.execute(
          to,
        );
      }
    }
  }
}

/**
 * Copies every table of Cabinet's state from `source` to `target` (both migrated), ids included.
 * The source is read in one transaction (a consistent snapshot) and the target written in one, so
 * a failure leaves the target as it was. A target that holds users is refused unless `force`, in
 * which case its rows are replaced. Returns the row count of each table in the source snapshot
 * and, after the commit, in the target.
 */
export async function copyDatabase(
  source: Db,
  target: Db,
  { force = false }: { force?: boolean } = {},
): Promise<CopiedTable[]> {
  const from = source as unknown as LooseDb;
  const to = target as unknown as LooseDb;
  const snapshot =
    engineOf(from) === 'postgres'
      ? from.transaction().setIsolationLevel('repeatable read').setAccessMode('read only')
      : from.transaction();
  const sourceCounts = await snapshot.execute(async (reader) => {
    const counts = new Map<StateTable, number>();
    for (const table of STATE_TABLE_NAMES) counts.set(table, await countRows(reader, table));
    await to.transaction().execute(async (writer) => {
      const users = await countRows(writer, 'users');
      if (users > 0 && !force) throw new TargetNotEmptyError(users);
      for (const table of TRANSIENT_TABLES) await writer.deleteFrom(table).execute();
      for (const table of [...STATE_TABLE_NAMES].reverse())
        await writer.deleteFrom(table).execute();
      for (const table of STATE_TABLE_NAMES) await copyTable(reader, writer, table);
      await carryIdCounters(reader, writer);
    });
    return counts;
  });
  const copied: CopiedTable[] = [];
  for (const table of STATE_TABLE_NAMES) {
    copied.push({ table, source: sourceCounts.get(table)!, target: await countRows(to, table) });
  }
  return copied;
}
