// The copy run (fs/copy-run.ts) on a real tree: several files in flight with progress counted in
// plan order, temps recorded in batches and none left behind, a stop that drops the files in
// flight, a resume that skips what an earlier run copied, and the first failure ending the copy.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CopyProgress } from './copy-run.ts';
import { FILES_IN_FLIGHT, TEMPS_PER_JOURNAL_ENTRY } from './copy-run.ts';
import { base, put, scope, status, useScopedTree, view } from './scoped-fs.fixture.ts';
import { isTempName } from './temp-files.ts';

useScopedTree();

const COUNT = 2 * TEMPS_PER_JOURNAL_ENTRY + 22;

/** `COUNT` files in 7 folders, file n holding n + 1 bytes of its own value. */
async function manyFiles(): Promise<string[]> {
  const names: string[] = [];
  for (let n = 0; n < COUNT; n++) {
    const name = `d${n % 7}/f${String(n).padStart(3, '0')}`;
    await put(path.join(scope, 'many', name));
    await writeFile(path.join(scope, 'many', name), Buffer.alloc(n + 1, n % 256));
    names.push(name);
  }
  return names;
}

/** Every file under a real folder, relative, temp names included. */
async function filesIn(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return found
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The journal's entries (every process folder): none may outlive a copy. */
const journalEntries = () => filesIn(path.join(base, 'data', 'temp-journal'));

async function expectWhole(names: string[]): Promise<void> {
  for (const name of names) {
    const n = Number(name.slice(-3));
    expect(await readFile(path.join(scope, 'copy', name))).toEqual(Buffer.alloc(n + 1, n % 256));
  }
}

describe('a copy run', () => {
  it('copies several files at once, counting progress by the unbroken run in plan order', async () => {
    const names = await manyFiles();
    const fs = await view();
    const progress: CopyProgress[] = [];
    // The first landed file is held until others landed: only copies in flight together can.
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    await fs.copy('/many', '/copy', {
      control: {
        onFile: async (step) => {
          progress.push(step);
          if (progress.length === 4) releaseFirst();
          if (progress.length === 1) await firstHeld;
        },
      },
    });
    expect(await filesIn(path.join(scope, 'copy'))).toEqual(names.toSorted());
    await expectWhole(names);
    expect(progress).toHaveLength(COUNT);
    const throughs = progress.map((step) => step.through);
    expect(throughs.toSorted((a, b) => a - b)).toEqual(throughs);
    expect(throughs.at(-1)).toBe(COUNT);
    expect(progress.reduce((sum, step) => sum + step.files, 0)).toBe(COUNT);
    expect(progress.reduce((sum, step) => sum + step.bytes, 0)).toBe((COUNT * (COUNT + 1)) / 2);
    expect(await journalEntries()).toEqual([]);
  });

  it('drops the files in flight at a stop, leaving whole files and no temp or journal entry', async () => {
    await manyFiles();
    const fs = await view();
    const stop = new AbortController();
    let landings = 0;
    const copying = fs.copy('/many', '/copy', {
      control: {
        signal: stop.signal,
        onFile: () => {
          landings += 1;
          if (landings === 10) stop.abort(new Error('stopped by the test'));
        },
      },
    });
    await expect(copying).rejects.toThrow('stopped by the test');
    const landed = await filesIn(path.join(scope, 'copy'));
    expect(landed.filter((name) => isTempName(path.basename(name)))).toEqual([]);
    expect(landed.length).toBeGreaterThanOrEqual(10);
    // No file starts after the stop: only those already in flight may have landed.
    expect(landed.length).toBeLessThan(10 + FILES_IN_FLIGHT);
    await expectWhole(landed);
    expect(await journalEntries()).toEqual([]);
  });

  it('skips the files an earlier run copied and goes on from there', async () => {
    const names = await manyFiles();
    const fs = await view();
    const skip = 100;
    const progress: CopyProgress[] = [];
    await fs.copy('/many', '/copy', {
      control: { skipFiles: skip, onFile: (step) => void progress.push(step) },
    });
    const landed = await filesIn(path.join(scope, 'copy'));
    expect(landed).toHaveLength(COUNT - skip);
    await expectWhole(landed);
    // Plan order: folders by name, files by name within them; the first `skip` are left out.
    const planOrder = names.toSorted();
    expect(landed).toEqual(planOrder.slice(skip));
    const throughs = progress.map((step) => step.through);
    expect(Math.min(...throughs)).toBeGreaterThanOrEqual(skip);
    expect(Math.max(...throughs)).toBe(COUNT);
    expect(progress.reduce((sum, step) => sum + step.files, 0)).toBe(COUNT - skip);
  });

  it('ends at the first failure, with no temp or journal entry left', async () => {
    await manyFiles();
    const fs = await view();
    const copying = fs.copy('/many', '/copy', {
      control: {
        // Gone between the plan and its run: its copy fails.
        onPlan: () => rm(path.join(scope, 'many', 'd3/f010')),
      },
    });
    expect(await status(copying)).toBe(404);
    const landed = await filesIn(path.join(scope, 'copy'));
    expect(landed.filter((name) => isTempName(path.basename(name)))).toEqual([]);
    expect(landed).not.toContain('d3/f010');
    expect(landed.length).toBeLessThan(COUNT - 1);
    await expectWhole(landed);
    expect(await journalEntries()).toEqual([]);
  });
});
