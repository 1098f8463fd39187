import { randomBytes } from 'node:crypto';
import { mkdir, realpath, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { FileChanges } from '../tree/changes.ts';
import { FindStats } from '../tree/read/find-stats.ts';
import { TempJournal, type TempJournalOptions } from './temp-files.ts';
import { UploadStaging } from './upload-staging.ts';
import { WriteBuffers } from './write-buffers.ts';

/** Default modes of created files and folders (effective 0640/0750). */
export const DEFAULT_FILE_MODE = 0o640;
export const DEFAULT_DIR_MODE = 0o750;

export interface FileRootOptions {
  /** The configured root folder (made absolute and real here). */
  root: string;
  /** The data folder, for the temp-file journal. */
  dataDir: string;
  log?: FastifyBaseLogger;
  fileMode?: number;
  dirMode?: number;
  /** Skip the probe and force case folding on or off (e.g. FUSE mounts that answer oddly). */
  caseInsensitive?: boolean;
  /** How the journal tells a gone writer (tests stand in for a crashed process). */
  journal?: TempJournalOptions;
}

/**
 * The served tree as a whole, opened once at start: its real path, whether its file system folds
 * case, the temp-file journal and the change feed. Per-user access goes through ScopedFs.
 */
export class FileRoot {
  private constructor(
    /** Real (symlink-free) absolute path of the root folder. */
    readonly realRoot: string,
    /** True when the root's file system treats `a` and `A` as the same name. */
    readonly caseInsensitive: boolean,
    readonly journal: TempJournal,
    readonly changes: FileChanges,
    readonly fileMode: number,
    readonly dirMode: number,
    /** Batch buffers and collection cadence shared by every write of a body into this root. */
    readonly writeBuffers: WriteBuffers,
    /**
     * An empty folder of the data folder, outside the root: the real place of a view's virtual
     * "Shared with me" folder (docs/teams.md), so reading it reads nothing of anyone's files.
     */
    readonly emptyFolder: string,
  ) {}

  private staging: UploadStaging | undefined;

  /** Big folders' stats by GNU find in a process of its own (tree/read/find-stats.ts). */
  readonly findStats = new FindStats();

  /**
   * The staging writer of resumable uploads (created on first use): its flush-behind state spans
   * the requests of an upload, so every ScopedFs on this root shares it.
   */
  get uploadStaging(): UploadStaging {
    this.staging ??= new UploadStaging(this);
    return this.staging;
  }

  /**
   * Opens the root: creates it if missing, probes case folding, removes the leftovers of writers
   * that crashed (never those of another instance still running on the same data folder).
   */
  static async open(options: FileRootOptions): Promise<FileRoot> {
    await mkdir(options.root, { recursive: true });
    const realRoot = await realpath(path.resolve(options.root));
    const caseInsensitive =
      options.caseInsensitive ?? (await probeCaseInsensitive(realRoot, options.log));
    const journal = await TempJournal.open(options.dataDir, options.journal);
    const removed = await journal.cleanUp();
    if (removed > 0) options.log?.info({ removed }, 'removed temp files of interrupted writes');
    const emptyFolder = path.join(path.resolve(options.dataDir), 'empty-folder');
    await mkdir(emptyFolder, { recursive: true });
    return new FileRoot(
      realRoot,
      caseInsensitive,
      journal,
      new FileChanges(),
      options.fileMode ?? DEFAULT_FILE_MODE,
      options.dirMode ?? DEFAULT_DIR_MODE,
      new WriteBuffers(),
      await realpath(emptyFolder),
    );
  }
}

/**
 * Creates a lower-case probe file and looks for it under its upper-case name. A root that cannot be
 * written is assumed case-sensitive (logged), which is the common case on Linux.
 */
async function probeCaseInsensitive(realRoot: string, log?: FastifyBaseLogger): Promise<boolean> {
  const name = `.cabinet-case-probe-${randomBytes(6).toString('hex')}`;
  const probe = path.join(realRoot, name);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    log?.warn({ err: error }, 'could not probe case folding of the root; assuming case-sensitive');
    return false;
  }
  try {
    await stat(path.join(realRoot, name.toUpperCase()));
    return true;
  } catch {
    return false;
  } finally {
    await unlink(probe).catch(() => undefined);
  }
}
