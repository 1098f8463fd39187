import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { copyFileAtomic } from './atomic-write.ts';
import type { CopyStep, FileStep } from './copy-plan.ts';
import type { FileRoot } from './file-root.ts';
import { errorCode, toAppError } from './fs-errors.ts';
import type { TempJournal } from './temp-files.ts';
import { newTempName } from './temp-files.ts';

/**
 * Files copied at once. One file costs a few file system round trips (copy, rename) that mostly
 * wait; with several in flight they overlap, and libuv's thread pool (4 threads by default) stays
 * busy. Measured in docs/benchmarks.md ("Copy job against cp -r").
 */
export const FILES_IN_FLIGHT = 8;

/** Temp files recorded by one journal entry: one small write per batch, not per file. */
export const TEMPS_PER_JOURNAL_ENTRY = 64;

/** What a copy reports as its files land (see CopyControl.onFile). */
export interface CopyProgress {
  /** How many of the plan's files, from its start, have all landed: where a later run resumes. */
  through: number;
  /** Files this landing added to that unbroken run (0 when it landed ahead of one in flight). */
  files: number;
  /** Their bytes. */
  bytes: number;
}

/** How a caller follows and stops a copy (background jobs, docs/jobs.md). */
export interface CopyControl {
  /** Checked before each step; the files being copied when it aborts are dropped, never renamed. */
  signal?: AbortSignal;
  /** File steps an earlier run already copied (its last `through`): skipped, their folders made. */
  skipFiles?: number;
  /** Called with the plan before anything is written. */
  onPlan?: (files: number, bytes: number) => void | Promise<void>;
  /**
   * Called after each file landed under its final name. Files land out of plan order, so progress
   * is counted by the unbroken run of landed files from the plan's start: a later run that skips
   * `through` files copies again (whole) only the few that had landed beyond it.
   */
  onFile?: (progress: CopyProgress) => void | Promise<void>;
}

/**
 * Carries out a plan: folders made in plan order, before any file inside them starts; files copied
 * FILES_IN_FLIGHT at a time, each to a temp name renamed over its target at its end. The first
 * failure (or the signal) stops the copy: no further file starts, the files in flight are dropped,
 * and the error is thrown once they settled.
 */
export async function runCopyPlan(
  steps: CopyStep[],
  root: FileRoot,
  control: CopyControl = {},
): Promise<void> {
  const files = steps.filter((step): step is FileStep => step.kind === 'file');
  if (control.onPlan) {
    await control.onPlan(
      files.length,
      files.reduce((sum, step) => sum + step.size, 0),
    );
  }
  const skip = Math.min(control.skipFiles ?? 0, files.length);
  const stop = new AbortController();
  const signal = control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal;
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort(error);
  };
  const temps = new TempBatches(root.journal, files.slice(skip));
  const landing = new InOrder(
    skip,
    files.map((step) => step.size),
  );
  const inFlight = new Set<Promise<void>>();

  const copyOne = async (step: FileStep, index: number) => {
    try {
      const temp = await temps.pathOf(index - skip);
      try {
        await copyFileAtomic(step.from, temp, step.to, signal);
      } finally {
        await temps.settled(index - skip);
      }
      await control.onFile?.(landing.landed(index));
    } catch (error) {
      fail(error);
    }
  };

  let fileIndex = 0;
  try {
    for (const step of steps) {
      signal.throwIfAborted();
      if (step.kind === 'dir') {
        try {
          await mkdir(step.to, { recursive: true, mode: root.dirMode });
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') throw toAppError(error);
        }
        continue;
      }
      const index = fileIndex++;
      if (index < skip) continue;
      while (inFlight.size >= FILES_IN_FLIGHT) await Promise.race(inFlight);
      signal.throwIfAborted();
      const task = copyOne(step, index).finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } catch (error) {
    fail(error);
  }
  await Promise.all(inFlight);
  await temps.forgetAll();
  if (failure) throw failure.error;
}

/**
 * The copy's temp names, recorded in the journal TEMPS_PER_JOURNAL_ENTRY at a time before the
 * first of them is created; an entry is forgotten once each of its files landed or was dropped.
 */
class TempBatches {
  private readonly batches = new Map<
    number,
    { id: Promise<string>; paths: string[]; open: number }
  >();

  constructor(
    private readonly journal: TempJournal,
    /** The files still to copy, in plan order. */
    private readonly files: readonly FileStep[],
  ) {}

  /** The temp path of the n-th file still to copy, recorded before it is returned. */
  async pathOf(n: number): Promise<string> {
    const number = Math.floor(n / TEMPS_PER_JOURNAL_ENTRY);
    let batch = this.batches.get(number);
    if (!batch) {
      const first = number * TEMPS_PER_JOURNAL_ENTRY;
      const paths = this.files
        .slice(first, first + TEMPS_PER_JOURNAL_ENTRY)
        .map((step) => path.join(path.dirname(step.to), newTempName()));
      batch = { id: this.journal.recordMany(paths), paths, open: paths.length };
      this.batches.set(number, batch);
    }
    await batch.id;
    return batch.paths[n - number * TEMPS_PER_JOURNAL_ENTRY]!;
  }

  /** The n-th file's temp is gone (renamed or removed). */
  async settled(n: number): Promise<void> {
    const number = Math.floor(n / TEMPS_PER_JOURNAL_ENTRY);
    const batch = this.batches.get(number);
    if (!batch) return;
    batch.open -= 1;
    if (batch.open > 0) return;
    this.batches.delete(number);
    await this.journal.forget(await batch.id);
  }

  /** After the copy (or its stop): the entries of batches some of whose files never started. */
  async forgetAll(): Promise<void> {
    for (const batch of this.batches.values()) {
      await batch.id.then((id) => this.journal.forget(id)).catch(() => undefined);
    }
    this.batches.clear();
  }
}

/** The unbroken run of landed files from the plan's start, as files land in any order. */
class InOrder {
  private readonly done: boolean[] = [];
  private through: number;

  constructor(
    skip: number,
    private readonly sizes: readonly number[],
  ) {
    this.through = skip;
  }

  landed(index: number): CopyProgress {
    this.done[index] = true;
    let files = 0;
    let bytes = 0;
    while (this.done[this.through]) {
      bytes += this.sizes[this.through]!;
      this.through += 1;
      files += 1;
    }
    return { through: this.through, files, bytes };
  }
}
