import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandUrl, runCommand, type TestUser } from '@cabinet/server/testing';
import { ShellPanel } from '../pages/shell-panel.ts';
import { withCabinet } from '../support/cabinet.ts';
import { ARTIFACTS } from '../support/paths.ts';

/** A folder longer than the screen, to see the page keep room for the panel. */
const LONG_FOLDER = Object.fromEntries(
  Array.from({ length: 30 }, (_, i) => [`long/file-${String(i + 1).padStart(2, '0')}.txt`, 'x']),
);

const cabinet = withCabinet({
  files: { 'work/a.txt': 'a', 'work/b.txt': 'b', ...LONG_FOLDER },
  server: { config: { enableExec: true } },
});
let user: TestUser;

beforeAll(async () => {
  user = await cabinet.server.createUser({
    scope: '/',
    commands: ['ls', 'echo', 'sh', 'touch'],
    perm: { execute: true },
  });
});

/** Opens /files/<folder> as the user and the shell panel over it. */
async function openShell(folder = 'work/', options = {}) {
  const ops = await cabinet.open(folder, { token: user.token, ...options });
  const shell = new ShellPanel(ops.page);
  await shell.open();
  return { ops, shell };
}

/** Processes whose command line starts with `prefix`. */
function processesWith(prefix: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .replaceAll('\0', ' ')
          .startsWith(prefix);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('shell panel', () => {
  it('is offered only to users with the execute permission', async () => {
    const noExec = await cabinet.server.createUser({ commands: ['ls'], perm: { execute: false } });
    const ops = await cabinet.open('', { token: noExec.token });
    await ops.files.listing.waitFor();
    expect(await new ShellPanel(ops.page).toggle.count()).toBe(0);
  });

  it('runs a command in the folder on screen and streams its output as it comes', async () => {
    const { shell } = await openShell();
    await shell.run('ls');
    await shell.waitForLine('b.txt');
    expect(await shell.lines()).toEqual(['$ ls', 'a.txt', 'b.txt']);

    const go = path.join(cabinet.server.root, 'work', 'go');
    await shell.run(`sh -c 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second'`);
    await shell.waitForLine('first');
    // Still running: "first" was shown before the command ended.
    await shell.stopButton.waitFor();
    await writeFile(go, '');
    await shell.waitForLine('second');
    await shell.stopButton.waitFor({ state: 'detached' });
  });

  it('reloads the listing after a command', async () => {
    const { ops, shell } = await openShell();
    await shell.run('touch made-by-shell.txt');
    await ops.files.entry('made-by-shell.txt').waitFor();
  });

  it('recalls earlier commands with Up and Down, also after a reload', async () => {
    const { ops, shell } = await openShell();
    await shell.run('echo one');
    await shell.waitForLine('one');
    await shell.run('echo two');
    await shell.waitForLine('two');
    await shell.input.press('ArrowUp');
    expect(await shell.input.inputValue()).toBe('echo two');
    await shell.input.press('ArrowUp');
    expect(await shell.input.inputValue()).toBe('echo one');
    await shell.input.press('ArrowDown');
    expect(await shell.input.inputValue()).toBe('echo two');
    await shell.input.press('ArrowDown');
    expect(await shell.input.inputValue()).toBe('');

    await ops.page.reload();
    await shell.open();
    await shell.input.press('ArrowUp');
    expect(await shell.input.inputValue()).toBe('echo two');
  });

  it('empties the panel with clear and closes it with exit', async () => {
    const { shell } = await openShell();
    await shell.run('echo hello');
    await shell.waitForLine('hello');
    await shell.run('clear');
    await expect.poll(() => shell.lines()).toEqual([]);
    await shell.run('exit');
    await shell.panel.waitFor({ state: 'detached' });
    // Focus is back on the button that opens it.
    expect(await shell.toggle.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('stops the running command with Ctrl+C', async () => {
    const marker = 'sleep 307.5';
    const { shell } = await openShell();
    await shell.run(`sh -c 'echo started; ${marker}'`);
    await shell.waitForLine('started');
    await expect.poll(() => processesWith(marker).length).toBe(1);
    await shell.input.press('Control+c');
    await shell.waitForLine('Stopped.');
    await shell.stopButton.waitFor({ state: 'detached' });
    await expect.poll(() => processesWith(marker).length).toBe(0);
  });

  it('shows why a command was refused', async () => {
    const { shell } = await openShell();
    await shell.run('rm a.txt');
    await shell.waitForLine('Command not allowed.');
    await shell.waitForLine('"rm" is not one of the commands you may run.');
    await shell.run('ls > list.txt');
    await shell.waitForLine('Refused: redirection (>) is not allowed.');
    expect(readdirSync(path.join(cabinet.server.root, 'work')).sort()).not.toContain('list.txt');
  });

  it.each([
    ['desktop', 1280, 'light'],
    ['desktop', 1280, 'dark'],
    ['phone', 390, 'light'],
    ['phone', 390, 'dark'],
  ] as const)(
    'looks right on %s at %i px in the %s theme (screenshot)',
    async (kind, width, colorScheme) => {
      await mkdir(ARTIFACTS, { recursive: true });
      const { ops, shell } = await openShell('long/', { width, height: 760, colorScheme });
      await ops.page.evaluate((theme) => {
        document.documentElement.dataset.theme = theme;
      }, colorScheme);
      await shell.run('ls');
      await shell.waitForLine('file-30.txt');
      await shell.run('rm file-01.txt');
      await shell.waitForLine('Command not allowed.');
      const box = await shell.panel.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      // Scrolled to the end, the last entry shows above the panel rather than under it.
      await ops.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const last = (await ops.files.entryNames()).at(-1)!;
      const lastBox = await ops.files.entry(last).boundingBox();
      expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(box!.y);
      await ops.page.screenshot({ path: path.join(ARTIFACTS, `shell-${kind}-${colorScheme}.png`) });
    },
  );
});

describe('command runs in the settings area', () => {
  it('lists who ran what and how it ended, for administrators', async () => {
    await runCommand(commandUrl(cabinet.server.url, 'work'), 'rm b.txt', { 'X-Auth': user.token });
    const ops = await cabinet.open('');
    await ops.page.goto(`${cabinet.server.url}/settings/global`);
    await ops.page.getByRole('link', { name: 'Command runs' }).click();
    const table = ops.page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: 'rm b.txt' }).first();
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual([
      user.user.username,
      'Shell',
      'rm b.txt',
      '/work',
      'Refused',
      expect.stringMatching(/^\d+ ms$/),
    ]);
    await ops.page.screenshot({ path: path.join(ARTIFACTS, 'command-runs-desktop-light.png') });
    await ops.page.setViewportSize({ width: 390, height: 760 });
    await ops.page.evaluate(() => {
      document.documentElement.dataset.theme = 'dark';
    });
    // On a phone the table scrolls sideways inside its frame; the page itself does not.
    expect(await ops.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await ops.page.screenshot({ path: path.join(ARTIFACTS, 'command-runs-phone-dark.png') });
  });
});
