import type { PeopleShare, SharedWithMe } from '@cabinet/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FilesPage } from '../pages/files-page.ts';
import { PeopleSection } from '../pages/teams-pages.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet({
  files: {
    'report.txt': 'quarterly numbers\n',
    'trip/notes.txt': 'packing list\n',
    'projects/design/brief.txt': 'brief\n',
    'home/kim/mine.txt': 'mine\n',
    'home/mo/': '',
  },
});

const VIEW = { create: false, rename: false, modify: false, delete: false, share: false };

/** A call to the API with `token`, parsed as JSON when it answers some. */
async function call<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await cabinet.server.fetch(path, { ...init, token });
  expect(response.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  return (isJson ? await response.json() : undefined) as T;
}

/** `owner` shares `path` with `recipientId` to view, through the API. */
function shareWith(owner: string, path: string, recipientId: number): Promise<PeopleShare> {
  return call<PeopleShare>(owner, '/api/people-shares', {
    method: 'POST',
    body: JSON.stringify({ path, grantees: [{ kind: 'user', id: recipientId }], access: VIEW }),
  });
}

/**
 * Makes the page's next loads note when their event stream is open (its `ready` event), so a test
 * changes grants only once the page can hear of it.
 */
async function noteStreamReady(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('ready', () => {
          (window as unknown as { streamReady: boolean }).streamReady = true;
        });
      }
    };
  });
}

/** Waits until the page's event stream has said `ready`. */
async function streamReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { streamReady?: boolean }).streamReady);
}

describe("the share dialog's people", () => {
  it('shares an item with a user found by name, changes the access and removes it', async () => {
    const erin = await cabinet.server.createUser({ username: 'erin' });
    const ops = await cabinet.open('');
    await ops.select('report.txt');
    await ops.action('Share').click();
    const people = new PeopleSection(ops.page);
    await people.section.getByText('Not shared with anyone yet.').waitFor();
    // Nobody picked yet: nothing to share.
    expect(await people.share.isDisabled()).toBe(true);
    await people.picker.pick('eri', 'erin');
    await people.access.selectOption({ label: 'Can edit' });
    await people.share.click();
    await waitForNotice(ops.page, 'Shared with the people chosen');
    await expect.poll(() => people.whoHasAccess.count()).toBe(1);
    const row = people.whoHasAccess.first();
    expect(await row.textContent()).toContain('erin');
    const admin = cabinet.server.admin.token;
    let [share] = await call<PeopleShare[]>(admin, '/api/people-shares?path=%2Freport.txt');
    expect(share!.grantees.map((g) => g.id)).toEqual([erin.user.id]);
    expect(share!.access).toMatchObject({ create: true, modify: true });
    // The recipient finds it under "Shared with me".
    const received = await call<SharedWithMe[]>(erin.token, '/api/shared-with-me');
    expect(received.map((r) => [r.name, r.owner])).toEqual([['report.txt', 'admin']]);

    await row.getByRole('combobox', { name: 'Access of erin' }).selectOption({ label: 'Can view' });
    await expect
      .poll(async () => (await call<PeopleShare[]>(admin, '/api/people-shares'))[0]!.access)
      .toEqual(VIEW);
    await row.getByRole('button', { name: 'Remove access for erin' }).click();
    await waitForNotice(ops.page, 'Access removed');
    await people.section.getByText('Not shared with anyone yet.').waitFor();
    [share] = await call<PeopleShare[]>(admin, '/api/people-shares');
    expect(share).toBeUndefined();
  });

  it('lists shares with people on the Shares screen, where access can be revoked', async () => {
    const fay = await cabinet.server.createUser({ username: 'fay' });
    await shareWith(cabinet.server.admin.token, '/trip', fay.user.id);
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/settings/shares`);
    const card = page.getByRole('region', { name: 'Shared with people' });
    const rows = card.getByRole('list', { name: 'Who has access' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('/trip');
    await rows.first().getByRole('button', { name: 'Remove access for fay' }).click();
    await card.getByText('Not shared with anyone yet.').waitFor();
    expect(await call<SharedWithMe[]>(fay.token, '/api/shared-with-me')).toEqual([]);
  });
});

describe('Shared with me', () => {
  it('lists what others share, opens from the sidebar and leaves a share', async () => {
    const gil = await cabinet.server.createUser({ username: 'gil' });
    const hana = await cabinet.server.createUser({ username: 'hana' });
    await shareWith(gil.token, '/report.txt', hana.user.id);
    const { page } = await cabinet.tokenPage({ token: hana.token });
    await page.goto(`${cabinet.server.url}/files/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Shared with me' })
      .click();
    await page.getByRole('heading', { name: 'Shared with me', level: 1 }).waitFor();
    const items = page.getByRole('list', { name: 'Shared with me' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(1);
    await items
      .first()
      .getByRole('img', { name: /^Shared by \W?gil\W?$/ })
      .waitFor();
    expect(await items.first().textContent()).toContain('Can view');

    await items.first().getByRole('button', { name: 'Leave report.txt' }).click();
    await page
      .getByRole('dialog', { name: 'Leave this share?' })
      .getByRole('button', { name: 'Leave' })
      .click();
    await waitForNotice(page, 'You left the share');
    await page.getByText('Nothing is shared with you yet.').waitFor();
    expect(await call<SharedWithMe[]>(hana.token, '/api/shared-with-me')).toEqual([]);
  });

  it('takes a revoked share off a page that shows it, without a reload', async () => {
    const ivan = await cabinet.server.createUser({ username: 'ivan' });
    const jo = await cabinet.server.createUser({ username: 'jo' });
    const share = await shareWith(ivan.token, '/trip', jo.user.id);
    const { page } = await cabinet.tokenPage({ token: jo.token });
    await noteStreamReady(page);
    await page.goto(`${cabinet.server.url}/shared`);
    const items = page.getByRole('list', { name: 'Shared with me' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(1);
    // The page's event stream is open: what follows reaches it live.
    await streamReady(page);
    await call(ivan.token, `/api/people-shares/${share.id}`, { method: 'DELETE' });
    await page.getByText('Nothing is shared with you yet.').waitFor();
    // And a share made meanwhile appears the same way.
    await shareWith(ivan.token, '/report.txt', jo.user.id);
    await expect.poll(() => items.count()).toBe(1);
  });
});

describe('shared folders in the files view', () => {
  it('marks a team folder at the top of the view and hides the writes a view-only grant refuses', async () => {
    const kim = await cabinet.server.createUser({ username: 'kim', scope: '/home/kim' });
    await call(cabinet.server.admin.token, '/api/team-folders', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Design',
        path: '/projects/design',
        grantees: [{ kind: 'user', id: kim.user.id }],
        access: VIEW,
      }),
    });
    const { files } = await cabinet.open('', { token: kim.token });
    const folder = files.listing.getByRole('link', { name: /^Design/ });
    await folder.getByRole('img', { name: 'Team folder' }).waitFor();
    // Their own folder's writes are offered; the team folder's are not.
    await files.action('Upload').waitFor();
    await folder.dblclick();
    await files.entry('brief.txt').waitFor();
    expect(await files.action('Upload').count()).toBe(0);
    await files.entry('brief.txt').click();
    await files.action('Download').waitFor();
    for (const name of ['Rename', 'Move', 'Delete']) {
      expect(await files.action(name).count(), name).toBe(0);
    }
  });

  it('shows the not-found page where a shared folder was open when it is revoked, with a way back', async () => {
    const lee = await cabinet.server.createUser({ username: 'lee' });
    const mo = await cabinet.server.createUser({ username: 'mo', scope: '/home/mo' });
    const share = await shareWith(lee.token, '/trip', mo.user.id);
    const { page } = await cabinet.tokenPage({ token: mo.token });
    await noteStreamReady(page);
    await page.goto(`${cabinet.server.url}/shared`);
    await page.getByRole('link', { name: 'trip', exact: true }).click();
    const files = new FilesPage(page);
    await files.entry('notes.txt').waitFor();
    await streamReady(page);
    await call(lee.token, `/api/people-shares/${share.id}`, { method: 'DELETE' });
    await page.getByRole('heading', { name: "This location can't be reached." }).waitFor();
    await page.getByRole('link', { name: 'Go to my files' }).click();
    await page.waitForURL(`${cabinet.server.url}/files/`);
  });
});
