import SQLite from 'better-sqlite3';

/** Pages per backup step: all of them, so the copy is taken in one read transaction. */
const ALL_PAGES = 0x7fffffff;

/** How long one attempt waits for a lock another connection holds (as the server's own wait). */
const BUSY_TIMEOUT_MS = 5000;

/** Tries before giving up on a database that stays locked: two minutes of waits in all. */
const MAX_ATTEMPTS = 24;

/** The latest migration applied to an open SQLite database: its schema version. */
function schemaOf(db: SQLite.Database): string | undefined {
  const row = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
    { name: string } | undefined;
  return row?.name;
}

/**
 * Copies a live SQLite database to `target` with SQLite's online backup: one step over every
 * page, so the copy is one consistent snapshot (in WAL mode the server keeps writing meanwhile),
 * then checks the copy with `pragma integrity_check`. Returns the copy's schema version.
 *
 * better-sqlite3 reports a first step that found the source locked (another connection holding
 * it exclusively) as a finished backup of zero pages; a database always has one page at least, so
 * that case is tried again (each try waits for the lock up to BUSY_TIMEOUT_MS), up to MAX_ATTEMPTS
 * times; a database still locked then is an error that says so.
 */
export async function backupSqlite(
  source: string,
  target: string,
  onWaiting: () => void = () => {},
): Promise<{ schemaVersion: string }> {
  const db = new SQLite(source, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    for (let attempt = 0; ; attempt++) {
      const done = await db.backup(target, { progress: () => ALL_PAGES });
      if (done.totalPages > 0) break;
      if (attempt + 1 >= MAX_ATTEMPTS) {
        throw new Error(
          `${source} stayed locked by another program for ${(MAX_ATTEMPTS * BUSY_TIMEOUT_MS) / 1000} s: ` +
            'nothing was backed up; try again once it lets go',
        );
      }
      if (attempt === 0) onWaiting();
    }
  } finally {
    db.close();
  }
  return checkSqliteCopy(target);
}

/**
 * Checks every page of a copied database and returns its schema version. The copy inherits the
 * server's WAL mode; it is switched to a rollback journal so it stays one self-contained file
 * (the server turns WAL on again when it opens it).
 */
export function checkSqliteCopy(file: string): { schemaVersion: string } {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`the copied database is damaged: ${String(result)}`);
    const schemaVersion = schemaOf(copy);
    if (!schemaVersion) throw new Error(`${file} is not a Cabinet database (no migrations)`);
    return { schemaVersion };
  } finally {
    copy.close();
  }
}
