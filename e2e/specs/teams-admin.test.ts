import type { Group, TeamFolder } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { PeoplePickerField, TeamsSettings } from '../pages/teams-pages.ts';
import { seriousAxeFindings } from '../support/axe.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet({
  files: { 'projects/design/brief.txt': 'brief\n', 'projects/sales/': '' },
});

/** GET as the admin, parsed. */
async function adminGet<T>(path: string): Promise<T> {
  const response = await cabinet.server.fetch(path, { token: cabinet.server.admin.token });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** POST as the admin; returns the created record. */
async function adminPost<T>(path: string, body: unknown): Promise<T> {
  const response = await cabinet.server.fetch(path, {
    method: 'POST',
    token: cabinet.server.admin.token,
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as T;
}

describe('Settings → Groups', () => {
  it('creates a group with members, renames it, changes its members and deletes it', async () => {
    const alice = await cabinet.server.createUser({ username: 'alice' });
    const bruno = await cabinet.server.createUser({ username: 'bruno' });
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/settings/groups`);
    const settings = new TeamsSettings(page);
    await page.getByRole('button', { name: 'New group' }).click();
    await settings.dialog.getByLabel('Group name').fill('Design');
    const members = new PeoplePickerField(settings.dialog, 'Members');
    await members.pick('ali', 'alice');
    await members.pick('BRU', 'bruno');
    await settings.dialog.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Group created');
    const row = settings.row(settings.groups, 'Design');
    await expect.poll(() => row.textContent()).toContain('Members: 2');
    let [group] = await adminGet<Group[]>('/api/groups');
    expect(group).toMatchObject({ name: 'Design', members: [alice.user.id, bruno.user.id] });

    // A name another group has is said on the name field.
    await adminPost('/api/groups', { name: 'Sales', members: [] });
    await page.getByRole('button', { name: 'Edit group Design' }).click();
    await settings.dialog.getByLabel('Group name').fill('sales');
    await settings.dialog.getByRole('button', { name: 'Save' }).click();
    await settings.dialog
      .getByRole('alert')
      .getByText('Another group already has this name.')
      .waitFor();
    await settings.dialog.getByLabel('Group name').fill('Design team');
    await members.remove('alice');
    await settings.dialog.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Group saved');
    [group] = await adminGet<Group[]>('/api/groups');
    expect(group).toMatchObject({ name: 'Design team', members: [bruno.user.id] });

    await page.getByRole('button', { name: 'Delete group Design team' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this group?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await waitForNotice(page, 'Group deleted');
    await expect.poll(() => settings.row(settings.groups, 'Design team').count()).toBe(0);
    expect((await adminGet<Group[]>('/api/groups')).map((g) => g.name)).toEqual(['Sales']);
  });

  it("shows and changes a user's groups on the user's page", async () => {
    const carol = await cabinet.server.createUser({ username: 'carol' });
    const ops = await adminPost<Group>('/api/groups', { name: 'Ops', members: [carol.user.id] });
    const qa = await adminPost<Group>('/api/groups', { name: 'QA', members: [] });
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/settings/users/${carol.user.id}`);
    const card = page.getByRole('form', { name: 'Groups' });
    const picker = new PeoplePickerField(card, 'Member of');
    await expect.poll(() => picker.chosen.allTextContents()).toEqual(['Group Ops']);
    await picker.remove('Ops');
    await picker.pick('q', 'QA');
    await card.getByRole('button', { name: 'Save groups' }).click();
    await waitForNotice(page, 'Groups saved');
    const groups = await adminGet<Group[]>('/api/groups');
    expect(groups.find((g) => g.id === ops.id)!.members).toEqual([]);
    expect(groups.find((g) => g.id === qa.id)!.members).toEqual([carol.user.id]);
  });
});

describe('Settings → Team folders', () => {
  it('grants a folder of the root to a user and a group, edits and deletes the grant', async () => {
    const dana = await cabinet.server.createUser({ username: 'dana' });
    const group = await adminPost<Group>('/api/groups', { name: 'Designers', members: [] });
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/settings/team-folders`);
    const settings = new TeamsSettings(page);
    await page.getByRole('button', { name: 'New team folder' }).click();
    const dialog = settings.dialog;
    await dialog.getByLabel('Name in their files').fill('Design');
    await dialog.getByLabel('Folder of the root').fill('projects/design');
    // A path that does not start at the root is said before asking the server.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Start the path with a slash (/).').waitFor();
    await dialog.getByLabel('Folder of the root').fill('/projects/design');
    const grantees = new PeoplePickerField(dialog, 'Users and groups');
    await grantees.pick('dan', 'dana');
    await grantees.pick('desi', 'Designers');
    await dialog.getByRole('radio', { name: 'Can edit' }).check();
    await dialog
      .getByRole('group', { name: 'What editors may do' })
      .getByLabel('Delete files and directories')
      .uncheck();
    await dialog.getByRole('checkbox', { name: 'May create links' }).check();
    await dialog.getByLabel('Storage quota').fill('1 GB');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Team folder created');
    const row = settings.row(settings.teamFolders, 'Design');
    await expect.poll(() => row.textContent()).toContain('Can edit');
    expect(await row.textContent()).toContain('/projects/design');
    let [folder] = await adminGet<TeamFolder[]>('/api/team-folders');
    expect(folder).toMatchObject({
      name: 'Design',
      path: '/projects/design',
      access: { create: true, rename: true, modify: true, delete: false, share: true },
      quota: 1024 ** 3,
    });
    expect(folder!.grantees.map(({ kind, id }) => ({ kind, id }))).toEqual(
      expect.arrayContaining([
        { kind: 'user', id: dana.user.id },
        { kind: 'group', id: group.id },
      ]),
    );

    await page.getByRole('button', { name: 'Edit team folder Design' }).click();
    await dialog.getByRole('radio', { name: 'Can view' }).check();
    await new PeoplePickerField(dialog, 'Users and groups').remove('Designers');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Team folder saved');
    [folder] = await adminGet<TeamFolder[]>('/api/team-folders');
    expect(folder!.access).toMatchObject({
      create: false,
      rename: false,
      modify: false,
      delete: false,
    });
    expect(folder!.grantees.map((g) => g.name)).toEqual(['dana']);

    await page.getByRole('button', { name: 'Delete team folder Design' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this team folder?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await waitForNotice(page, 'Team folder deleted');
    await page.getByText('No team folders yet.').waitFor();
    expect(await adminGet<TeamFolder[]>('/api/team-folders')).toEqual([]);
  });
});

describe('the teams screens', () => {
  it('have no serious accessibility findings in either theme, dialogs open', async () => {
    const nina = await cabinet.server.createUser({ username: 'nina' });
    await adminPost('/api/groups', { name: 'Editors', members: [nina.user.id] });
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await cabinet.tokenPage({ colorScheme });
      await page.goto(`${cabinet.server.url}/settings/groups`);
      const settings = new TeamsSettings(page);
      await settings.row(settings.groups, 'Editors').waitFor();
      expect(await seriousAxeFindings(page), `groups, ${colorScheme}`).toEqual([]);
      await page.getByRole('button', { name: 'Edit group Editors' }).click();
      // The type-ahead's list open, an option highlighted.
      await new PeoplePickerField(settings.dialog, 'Members').input.fill('a');
      await page.getByRole('option').first().waitFor();
      expect(await seriousAxeFindings(page), `group dialog, ${colorScheme}`).toEqual([]);
      await page.goto(`${cabinet.server.url}/settings/team-folders`);
      await page.getByRole('button', { name: 'New team folder' }).click();
      await settings.dialog.getByRole('radio', { name: 'Can edit' }).check();
      expect(await seriousAxeFindings(page), `team folder dialog, ${colorScheme}`).toEqual([]);
      await page.goto(`${cabinet.server.url}/shared`);
      await page.getByText('Nothing is shared with you yet.').waitFor();
      expect(await seriousAxeFindings(page), `shared with me, ${colorScheme}`).toEqual([]);
    }
  });
});
