import path from 'node:path';
import { Command } from 'commander';
import { copyDatabase } from '../store/copy-database.ts';
import { describeDatabase, isPostgresUrl, openDatabase, type Db } from '../store/db.ts';
import type { CliIO } from './admin-context.ts';

/** A database option as given: a URL as is, a file relative to the working folder. */
function resolveDatabase(database: string): string {
  return isPostgresUrl(database) ? database : path.resolve(database);
}

/** Opens one side of a copy, naming the side in any error. */
async function openSide(role: 'source' | 'target', database: string): Promise<Db> {
  try {
    // Opening a missing source file would create an empty one and copy nothing.
    return await openDatabase(database, { mustExist: role === 'source' });
  } catch (error) {
    const message = (error as Error).message;
    // A connection error or a missing file names the database already.
    const name = message.includes(describeDatabase(database))
      ? ''
      : ` ${describeDatabase(database)}`;
    throw new Error(`${role}${name}: ${message}`, { cause: error });
  }
}

/** `cabinet db copy`: move an installation's state between SQLite and PostgreSQL. */
export function dbCommand(io: CliIO): Command {
  const db = new Command('db').description("Work on Cabinet's database as a whole");
  db.command('copy')
    .description(
      "Copy Cabinet's state from one database to another (SQLite file or postgres:// URL, " +
        'either way): both are migrated first, the target is written in one transaction, then ' +
        'the row counts of every table are compared',
    )
    .requiredOption('--from <database>', 'source: SQLite file or postgres:// URL')
    .requiredOption(
      '--to <database>',
      'target: postgres:// URL or SQLite file (created if missing)',
    )
    .option('--force', 'replace the contents of a target that already holds users')
    .action(async (opts: { from: string; to: string; force?: boolean }) => {
      const from = resolveDatabase(opts.from);
      const to = resolveDatabase(opts.to);
      if (from === to) throw new Error('--from and --to name the same database');
      const source = await openSide('source', from);
      try {
        const target = await openSide('target', to);
        try {
          const copied = await copyDatabase(source, target, { force: opts.force === true });
          io.out(`copied ${describeDatabase(from)} → ${describeDatabase(to)}`);
          const width = Math.max(...copied.map((c) => c.table.length));
          for (const { table, source: before, target: after } of copied) {
            io.out(`${table.padEnd(width)} ${before} → ${after} ${before === after ? '✓' : '✗'}`);
          }
          const differ = copied.filter((c) => c.source !== c.target).map((c) => c.table);
          if (differ.length > 0) {
            throw new Error(`row counts differ after the copy: ${differ.join(', ')}`);
          }
        } finally {
          await target.destroy();
        }
      } finally {
        await source.destroy();
      }
    });
  return db;
}
