import type { Locator, Page } from 'playwright-core';

/**
 * The people picker (a combobox over users and groups) inside `scope`, by its label: type part
 * of a name, then pick the option.
 */
export class PeoplePickerField {
  readonly input: Locator;
  readonly chosen: Locator;

  constructor(
    readonly scope: Locator,
    readonly label: string,
  ) {
    this.input = scope.getByRole('combobox', { name: label, exact: true });
    this.chosen = scope.getByRole('list', { name: `Chosen: ${label}` }).getByRole('listitem');
  }

  /** Types `text` and picks the option named `name` (a user or a group). */
  async pick(text: string, name: string): Promise<void> {
    await this.input.fill(text);
    await this.scope
      .page()
      .getByRole('option', { name: new RegExp(`^(User|Group) ${name}$`) })
      .click();
  }

  /** Removes a chosen person or group by its chip's button. */
  async remove(name: string): Promise<void> {
    await this.scope.getByRole('button', { name: `Remove ${name}`, exact: true }).click();
  }
}

/** Settings → Groups and Settings → Team folders, and their dialogs. */
export class TeamsSettings {
  readonly groups: Locator;
  readonly teamFolders: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.groups = page.getByRole('list', { name: 'Groups' }).getByRole('listitem');
    this.teamFolders = page.getByRole('list', { name: 'Team folders' }).getByRole('listitem');
    this.dialog = page.getByRole('dialog');
  }

  /** The row of the group or team folder named `name`. */
  row(list: Locator, name: string): Locator {
    return list.filter({ hasText: name });
  }
}

/** The share dialog's "People" section. */
export class PeopleSection {
  readonly section: Locator;
  readonly picker: PeoplePickerField;
  readonly access: Locator;
  readonly until: Locator;
  readonly share: Locator;
  readonly whoHasAccess: Locator;

  constructor(readonly page: Page) {
    this.section = page
      .getByRole('dialog', { name: 'Share' })
      .getByRole('region', { name: 'People' });
    this.picker = new PeoplePickerField(this.section, 'Share with');
    this.access = this.section.getByRole('combobox', { name: 'Access', exact: true });
    this.until = this.section.getByLabel('Until (optional)');
    this.share = this.section.getByRole('button', { name: 'Share', exact: true });
    this.whoHasAccess = this.section
      .getByRole('list', { name: 'Who has access' })
      .getByRole('listitem');
  }
}
