import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FileJobHold } from '@cabinet/server/testing';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { ARTIFACTS } from '../support/paths.ts';

// Issue 43, item 1: the Jobs panel lets finished jobs go (a failed one stays), lists recent ones
// on demand, collapses to one line that is remembered, and never covers a form's fields.

const hold = new FileJobHold();
const cabinet = withCabinet({
  files: {
    'p1/a.txt': 'a',
    'p1/dest/': '',
    'p2/big/1.bin': '1',
    'p2/big/2.bin': '2',
    'p2/dest/': '',
  },
  server: { afterJobFile: hold.afterFile },
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function startCopy(from: string, to: string, token = cabinet.server.admin.token) {
  const started = await fetch(`${cabinet.server.url}/api/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth': token },
    body: JSON.stringify({ kind: 'copy', items: [{ from, to }] }),
  });
  expect(started.status).toBe(202);
}

/** A copy job held mid-way (its first file landed) until the returned function is called. */
async function heldCopy(): Promise<() => void> {
  let release!: () => void;
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  hold.each = async () => {
    reached();
    await released;
  };
  await startCopy('/p2/big', `/p2/dest/big-${Math.random().toString(36).slice(2)}`);
  await held;
  return () => {
    hold.each = undefined;
    release();
  };
}

/** Each field, focused as a user reaches it (Tab or a tap), is clear of the panel. */
async function expectClear(page: Page, panel: Locator, fields: Locator[]) {
  for (const field of fields) {
    await field.focus();
    const name = await field.evaluate((el) => el.getAttribute('id') ?? el.outerHTML.slice(0, 60));
    // Focus scrolls a field into view: wait until it is settled in the viewport.
    await expect
      .poll(async () => {
        const box = (await field.boundingBox())!;
        const panelBox = (await panel.boundingBox())!;
        const height = page.viewportSize()!.height;
        const clear = box.y >= 0 && box.y + box.height <= height && !overlaps(box, panelBox);
        return clear ? 'clear' : `${name} ${JSON.stringify(box)} / ${JSON.stringify(panelBox)}`;
      })
      .toBe('clear');
  }
}

describe('the Jobs panel', { timeout: 120_000 }, () => {
  it('lets a job that ended well go on its own, keeps a failed one, and lists both as recent', async () => {
    const user = await cabinet.server.createUser({
      scope: '/q1',
      quota: 10 * 1024,
      viewMode: 'list',
    });
    const big = 'b'.repeat(4 * 1024);
    await cabinet.seed({
      'q1/one.txt': '1',
      'q1/two.txt': '2',
      'q1/big/a.bin': big,
      'q1/big/b.bin': big,
      'q1/dest/': '',
    });
    const ops = await cabinet.open('', { token: user.token });
    const panel = ops.page.getByRole('region', { name: 'Jobs' });
    const copyToDest = async (...names: string[]) => {
      await ops.select(...names);
      await ops.action('Copy').click();
      await ops.folderOption(ops.copyDialog, 'dest').click();
      await ops.button(ops.copyDialog, 'Copy').click();
    };
    await copyToDest('one.txt', 'two.txt');
    const done = panel.getByRole('listitem').filter({ hasText: /^Copy: \u2068?one\.txt/ });
    await done.getByText(/^Done/).waitFor();
    // Over the quota: the copy fails, and its row stays until closed.
    await ops.page.getByRole('link', { name: 'My files' }).click();
    await copyToDest('big');
    const failed = panel.getByRole('listitem').filter({ hasText: /^Copy: \u2068?big/ });
    await failed.getByText(/exceed your quota/).waitFor();
    await done.waitFor({ state: 'detached' });
    expect(await failed.isVisible()).toBe(true);
    await expect.poll(() => panel.getByText(/Failed: 1/).count()).toBe(1);

    // Recent lists the last ended jobs, the one that left included.
    await panel.getByRole('button', { name: 'Recent' }).click();
    const recent = panel.getByRole('list', { name: 'Recent' });
    await recent
      .getByRole('listitem')
      .filter({ hasText: /one\.txt/ })
      .waitFor();
    expect(await recent.getByRole('listitem').filter({ hasText: /big/ }).count()).toBe(1);
    await panel.getByRole('button', { name: 'Recent' }).click();
    await failed.getByRole('button', { name: /^Close/ }).click();
    await failed.waitFor({ state: 'detached' });

    // After a reload the ended jobs are history: one line, nothing listed until Recent.
    await ops.page.reload();
    await panel.getByRole('button', { name: 'Recent' }).waitFor();
    expect(await panel.getByRole('listitem').count()).toBe(0);
  });

  it('never covers the user form or the two-factor key at 1280×800, collapsed or open', async () => {
    const release = await heldCopy();
    try {
      const { page } = await cabinet.tokenPage({ width: 1280, height: 800 });
      await page.goto(`${cabinet.server.url}/settings/users/new`);
      const panel = page.getByRole('region', { name: 'Jobs' });
      await panel.getByRole('listitem').first().waitFor();
      const fields = [
        page.getByLabel('Password', { exact: true }),
        page.getByRole('textbox', { name: 'Scope' }),
        page.getByRole('textbox', { name: 'Storage quota' }),
      ];
      // Open (the wide screen's default): it docks beside the page, no wider than the sidebar.
      const open = (await panel.boundingBox())!;
      const main = (await page.locator('#main').boundingBox())!;
      expect(open.x + open.width).toBeLessThanOrEqual(main.x);
      await expectClear(page, panel, fields);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'jobs-panel-user-form-1280.png') });

      await page.goto(`${cabinet.server.url}/settings/profile`);
      await page.getByRole('button', { name: 'Set up' }).click();
      await page.locator('.two-factor__secret').waitFor();
      await expectClear(page, panel, [
        page.locator('.two-factor__secret'),
        page.getByRole('textbox', { name: 'Code' }),
      ]);
    } finally {
      release();
    }
  });

  it('is one line on a phone until opened, keeps fields clear, and remembers across sign-out', async () => {
    const release = await heldCopy();
    try {
      const { page } = await cabinet.loginPage({ width: 390, height: 800 });
      await page.goto(`${cabinet.server.url}/settings/users/new`);
      const panel = page.getByRole('region', { name: 'Jobs' });
      const toggle = panel.getByRole('button', { name: 'Show or hide the jobs' });
      await toggle.waitFor();
      // Collapsed by default on a phone: its head alone, one line, the running count in it.
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await panel.getByRole('listitem').count()).toBe(0);
      expect(await panel.textContent()).toContain('Running: 1');
      expect((await panel.boundingBox())!.height).toBeLessThanOrEqual(60);
      await expectClear(page, panel, [
        page.getByLabel('Password', { exact: true }),
        page.getByRole('textbox', { name: 'Scope' }),
        page.getByRole('textbox', { name: 'Storage quota' }),
      ]);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'jobs-panel-user-form-390.png') });

      // Opened, the choice is kept through a sign-out and the next sign-in.
      await toggle.click();
      await panel.getByRole('listitem').first().waitFor();
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      const login = new LoginPage(page);
      await login.username.waitFor();
      await login.login(cabinet.server.admin.user.username, cabinet.server.admin.password);
      await page.waitForURL(/\/files\//);
      await panel.getByRole('listitem').first().waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    } finally {
      release();
    }
  });
});
