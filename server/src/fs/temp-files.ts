import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './fs-errors.ts';

/** Every temp file Cabinet creates among user files starts with this; listings never show them. */
export const TEMP_PREFIX = '.cabinet-tmp-';

/** True for names of Cabinet's temp files. */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX);
}

/** A fresh, unguessable temp file name. */
export function newTempName(): string {
  return `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`;
}

/**
 * What a journal entry records. `atomic` temps (whole-body writes, copies) are deleted at the next
 * start; `resumable` temps (resumable uploads) survive restarts and are removed by their owner.
 */
export type TempKind = 'atomic' | 'resumable';

interface JournalEntry {
  path: string;
  kind: TempKind;
}

/**
 * Records in-flight temp files in the data folder, one small file per temp, so that a crash never
 * leaves orphans among user files: walking a huge tree at start to find them would be far too slow.
 * Cost per write: one tiny create and one unlink in the data folder.
 */
export class TempJournal {
  private constructor(private readonly dir: string) {}

  /** Opens (creating) the journal folder. */
  static async open(dataDir: string): Promise<TempJournal> {
    const dir = path.join(dataDir, 'temp-journal');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new TempJournal(dir);
  }

  /** Records a temp file before it is created; returns the id to forget it by. */
  async record(realTempPath: string, kind: TempKind): Promise<string> {
    const id = randomBytes(12).toString('hex');
    const entry: JournalEntry = { path: realTempPath, kind };
    await writeFile(path.join(this.dir, id), JSON.stringify(entry), { mode: 0o600 });
    return id;
  }

  /** Forgets a temp file that was renamed into place or removed. */
  async forget(id: string): Promise<void> {
    await unlink(path.join(this.dir, id)).catch(() => undefined);
  }

  /** Entries of one kind, with their ids. */
  async list(kind: TempKind): Promise<Array<{ id: string; path: string }>> {
    const found: Array<{ id: string; path: string }> = [];
    for (const id of await readdir(this.dir)) {
      const entry = await this.read(id);
      if (entry?.kind === kind) found.push({ id, path: entry.path });
    }
    return found;
  }

  /**
   * Removes the leftovers of writes interrupted by a crash. Only files whose name carries the temp
   * prefix are deleted, so a corrupted journal can never remove a user's file. Returns the count.
   */
  async cleanUp(): Promise<number> {
    let removed = 0;
    for (const id of await readdir(this.dir)) {
      const entry = await this.read(id);
      if (entry && entry.kind !== 'atomic') continue;
      if (entry && isTempName(path.basename(entry.path))) {
        try {
          await unlink(entry.path);
          removed++;
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') continue;
        }
      }
      await this.forget(id);
    }
    return removed;
  }

  private async read(id: string): Promise<JournalEntry | undefined> {
    try {
      const parsed = JSON.parse(await readFile(path.join(this.dir, id), 'utf8')) as JournalEntry;
      return typeof parsed.path === 'string' && path.isAbsolute(parsed.path) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
}
