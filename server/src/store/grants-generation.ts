import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * The grants generation (docs/teams.md): a number in `kv` that every write able to change what a
 * user's view mounts raises, in the write's own transaction. Each request reads it (one row by
 * primary key), and grants cached under another number are read again: a revocation on one
 * instance holds from the next request on every instance sharing the database.
 */
const KEY = 'grants.generation';

/** Raises the generation; call it inside the transaction of the write it stands for. */
export async function bumpGrantsGeneration(db: Db): Promise<void> {
  await db
    .insertInto('kv')
    .values({ key: KEY, value: '1' })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value: sql<string>`cast(cast(kv.value as integer) + 1 as text)` }),
    )
    .execute();
}

/** The generation now (0 before the first grant write). */
export async function grantsGeneration(db: Db): Promise<number> {
  const row = await db.selectFrom('kv').select('value').where('key', '=', KEY).executeTakeFirst();
  return row ? Number(row.value) : 0;
}
