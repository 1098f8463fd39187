// Issue 43, items 4 and 6: a copy's clash question offers Replace (red), Skip, Keep both and Apply
// to all before the job starts, and the Jobs panel counts what was skipped and replaced; the audit
// log names its targets as they were and says "Sign-in refused", never "Failed" for a question.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrashItem } from '@cabinet/protocol';
import { ARTIFACTS } from '../support/paths.ts';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet({});
const onDisk = (relative: string) => path.join(cabinet.server.root, relative);

/** Starts a copy of the named entries of `folder` into its subfolder `dest`. */
async function copyIntoDest(folder: string, names: string[]) {
  const ops = await cabinet.open(`${folder}/`);
  await ops.select(...names);
  await ops.action('Copy').click();
  await ops.folderOption(ops.copyDialog, 'dest').click();
  await ops.button(ops.copyDialog, 'Copy').click();
  return ops;
}

describe('the clash question of a copy', () => {
  it('offers Replace, Skip and Keep both up front, and counts what was skipped and replaced', async () => {
    await cabinet.seed({
      'k1/a.txt': 'new a',
      'k1/b.txt': 'new b',
      'k1/c.txt': 'new c',
      'k1/d.txt': 'new d',
      'k1/dest/a.txt': 'old a',
      'k1/dest/b.txt': 'old b',
      'k1/dest/c.txt': 'old c',
    });
    const ops = await copyIntoDest('k1', ['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    const prompt = ops.replaceRename;
    await prompt.waitFor();
    const buttons = await prompt.getByRole('button').allTextContents();
    expect(buttons).toEqual(expect.arrayContaining(['Cancel', 'Keep both', 'Skip', 'Replace']));
    await prompt.getByRole('checkbox', { name: 'Apply to all' }).waitFor();
    // Replace is painted as the Delete dialog paints its destructive button.
    const replace = ops.button(prompt, 'Replace');
    const keepBoth = ops.button(prompt, 'Keep both');
    const background = (locator: typeof replace) =>
      locator.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await replace.getAttribute('class')).toContain('button--danger');
    expect(await background(replace)).not.toBe(await background(keepBoth));
    expect(await prompt.textContent()).toContain('a.txt');
    await mkdir(ARTIFACTS, { recursive: true });
    await ops.page.screenshot({ path: path.join(ARTIFACTS, 'conflict-dialog-light-1280.png') });

    // Skip for the named clash only: the Jobs panel asks about the next, Replace for all of them.
    await ops.button(prompt, 'Skip').click();
    const panel = ops.page.getByRole('region', { name: 'Jobs' });
    const question = panel.getByRole('group', { name: 'Waiting for your answer' });
    await question.waitFor();
    expect(await question.textContent()).toContain('b.txt');
    const panelReplace = question.getByRole('button', { name: 'Replace', exact: true });
    expect(await panelReplace.getAttribute('class')).toContain('button--danger');
    await question.getByRole('checkbox', { name: 'Apply to all' }).check();
    await panelReplace.click();
    const row = panel.getByRole('listitem').filter({ hasText: /^Copy/ });
    await row.getByText(/^Done · .*1 skipped · 2 replaced$/).waitFor();
    expect(await readFile(onDisk('k1/dest/a.txt'), 'utf8')).toBe('old a');
    expect(await readFile(onDisk('k1/dest/b.txt'), 'utf8')).toBe('new b');
    expect(await readFile(onDisk('k1/dest/c.txt'), 'utf8')).toBe('new c');
    expect(await readFile(onDisk('k1/dest/d.txt'), 'utf8')).toBe('new d');
  });

  it('skips every clash at once with Apply to all, and says how many', async () => {
    await cabinet.seed({
      'k2/x.txt': 'new x',
      'k2/y.txt': 'new y',
      'k2/z.txt': 'new z',
      'k2/dest/x.txt': 'old x',
      'k2/dest/y.txt': 'old y',
      'k2/dest/z.txt': 'old z',
    });
    const ops = await copyIntoDest('k2', ['x.txt', 'y.txt', 'z.txt']);
    await ops.replaceRename.getByRole('checkbox', { name: 'Apply to all' }).check();
    await ops.button(ops.replaceRename, 'Skip').click();
    const panel = ops.page.getByRole('region', { name: 'Jobs' });
    // Nothing was copied: the totals leave the skipped files out ("0 of 0", not "0 of 3").
    await panel.getByText(/^Done · Files: 0 of 0 · .*3 skipped$/).waitFor();
    for (const name of ['x', 'y', 'z']) {
      expect(await readFile(onDisk(`k2/dest/${name}.txt`), 'utf8')).toBe(`old ${name}`);
    }
  });
});

describe('the audit log', () => {
  it('names targets as they were and says what happened in words', async () => {
    const server = cabinet.server;
    const user = await server.createUser({ username: 'dora', scope: '/dora' });
    await mkdir(onDisk('dora'), { recursive: true });
    const json = { 'content-type': 'application/json' };
    // A failed sign-in.
    const refused = await server.fetch('/api/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'dora', password: 'not-her-password-at-all' }),
    });
    expect(refused.status).toBe(403);
    // An app password created and revoked: its entries name it.
    const created = await server.fetch('/api/app-passwords', {
      method: 'POST',
      token: user.token,
      headers: json,
      body: JSON.stringify({ name: 'Laptop sync' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const revoked = await server.fetch(`/api/app-passwords/${id}`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(revoked.status).toBe(200);
    // A restore that first only asks about a clash, then keeps both.
    await writeFile(onDisk('dora/plan.txt'), 'first');
    const gone = await server.fetch('/api/resources/plan.txt', {
      method: 'DELETE',
      token: user.token,
    });
    expect(gone.status).toBe(204);
    await writeFile(onDisk('dora/plan.txt'), 'second');
    const trash = (await (
      await server.fetch('/api/trash', { token: user.token })
    ).json()) as TrashItem[];
    const item = trash.find((entry) => entry.path === '/plan.txt')!;
    const restore = (body?: object) =>
      server.fetch(`/api/trash/${item.id}/restore`, {
        method: 'POST',
        token: user.token,
        ...(body ? { headers: json, body: JSON.stringify(body) } : {}),
      });
    expect((await restore()).status).toBe(409);
    expect((await restore({ onConflict: 'keep-both' })).status).toBe(200);

    const { page } = await cabinet.tokenPage();
    await page.goto(`${server.url}/settings/audit`);
    await page.getByLabel('User', { exact: true }).fill('dora');
    await page.getByRole('button', { name: 'Apply' }).click();
    const rows = page.getByTestId('audit-entry');
    await rows.filter({ hasText: 'Restored from the trash' }).first().waitFor();
    const texts = await rows.allTextContents();
    const all = texts.join('\n');
    expect(all).not.toMatch(/app-password:|trash:|user:/);
    expect(await rows.filter({ hasText: 'App password revoked' }).textContent()).toContain(
      'Laptop sync',
    );
    expect(await rows.filter({ hasText: 'App password created' }).textContent()).toContain(
      'Laptop sync',
    );
    const restores = rows.filter({ hasText: 'Restored from the trash' });
    expect(await restores.count()).toBe(1);
    expect(await restores.textContent()).toContain('/plan.txt');
    expect(await restores.textContent()).toContain('Succeeded');
    expect(all).not.toContain('Failed');
    const signIn = rows.filter({ hasText: 'Sign-in refused' });
    expect(await signIn.count()).toBe(1);
    expect(await signIn.textContent()).toContain('Wrong password');
    expect(all).not.toContain('Signed in');
  });
});
