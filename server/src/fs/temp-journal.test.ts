import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRoot } from './file-root.ts';
import { FOREIGN_JOURNAL_STALE_MS, TEMP_PREFIX } from './temp-files.ts';

/**
 * The journal of temp files with real processes: a writer killed with SIGKILL leaves a temp that
 * the next start removes, while the temps of a writer still running on the same data folder (a
 * second instance) stay.
 */
let base: string;
let root: string;
let dataDir: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-journal-'));
  root = path.join(base, 'root');
  dataDir = path.join(base, 'data');
  await mkdir(path.join(root, 'home'), { recursive: true });
});

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts a process that begins an atomic write of /home/big.bin and prints its temp path. */
async function startWriter(): Promise<{ child: ReturnType<typeof spawn>; tempPath: string }> {
  const modules = import.meta.dirname;
  const script = `
    import { FileRoot } from ${JSON.stringify(path.join(modules, 'file-root.ts'))};
    import { ScopedFs } from ${JSON.stringify(path.join(modules, 'scoped-fs.ts'))};
    const files = await FileRoot.open({ root: ${JSON.stringify(root)}, dataDir: ${JSON.stringify(dataDir)} });
    const fs = await ScopedFs.open(files, { scope: '/home', rules: [], hideDotfiles: false });
    const { write } = await fs.createWriteAtomic('/big.bin');
    await write.pour('half of it');
    console.log(write.tempPath);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(modules, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const tempPath = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before writing`)));
  });
  return { child, tempPath };
}

describe('the temp-file journal across processes', () => {
  it('removes the temp of a writer killed mid-write at the next start', async () => {
    const { child, tempPath } = await startWriter();
    expect(path.basename(tempPath).startsWith(TEMP_PREFIX)).toBe(true);
    expect(existsSync(tempPath)).toBe(true);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await FileRoot.open({ root, dataDir });
    expect(existsSync(tempPath)).toBe(false);
    expect(existsSync(path.join(root, 'home', 'big.bin'))).toBe(false);
  });

  it('leaves the temp of a write running in another instance on the same data folder', async () => {
    const { tempPath } = await startWriter();
    await FileRoot.open({ root, dataDir });
    expect(existsSync(tempPath)).toBe(true);
  });

  it("removes another host's leftovers only once its journal has been idle for a day", async () => {
    const foreign = path.join(dataDir, 'temp-journal', 'elsewhere~4242~abc');
    await mkdir(foreign, { recursive: true });
    const temp = path.join(root, 'home', `${TEMP_PREFIX}foreign`);
    await writeFile(temp, 'partial');
    await writeFile(path.join(foreign, 'entry'), JSON.stringify({ path: temp, kind: 'atomic' }));
    const now = Date.now();
    await FileRoot.open({ root, dataDir, journal: { now: () => now } });
    expect(existsSync(temp)).toBe(true);
    await FileRoot.open({
      root,
      dataDir,
      journal: { now: () => now + FOREIGN_JOURNAL_STALE_MS + 60_000 },
    });
    expect(existsSync(temp)).toBe(false);
    expect(await readdir(path.join(dataDir, 'temp-journal'))).not.toContain('elsewhere~4242~abc');
  });
});

describe('a batch of temps in one journal entry', () => {
  it("removes a gone writer's batch temps that exist, and never a file without the temp prefix", async () => {
    const { TempJournal } = await import('./temp-files.ts');
    const folder = path.join(root, 'home');
    const made = [`${TEMP_PREFIX}one`, `${TEMP_PREFIX}two`].map((name) => path.join(folder, name));
    const neverMade = path.join(folder, `${TEMP_PREFIX}three`);
    const userFile = path.join(folder, 'keep.txt');
    const writer = await TempJournal.open(dataDir);
    await writer.recordMany([...made, neverMade, userFile]);
    for (const temp of made) await writeFile(temp, 'partial');
    await writeFile(userFile, 'mine');
    // The writer stands for a crashed copy: the next start judges every other writer gone.
    const next = await TempJournal.open(dataDir, { ownerGone: () => true });
    expect(await next.cleanUp()).toBe(2);
    for (const temp of [...made, neverMade]) expect(existsSync(temp)).toBe(false);
    expect(existsSync(userFile)).toBe(true);
    expect(await readdir(path.join(dataDir, 'temp-journal'))).toHaveLength(1);
  });
});
