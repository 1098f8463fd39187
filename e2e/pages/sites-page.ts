import type { FrameLocator, Locator, Page } from 'playwright-core';

/**
 * The static-site area: the Sites card of the global settings, the Sites and posts screens, the
 * new post and schedule dialogs, and the editor with its live preview, found by role and name.
 */
export class SitesPage {
  readonly sidebarLink: Locator;
  readonly settingsCard: Locator;
  readonly addSite: Locator;
  readonly newPost: Locator;
  readonly rebuild: Locator;
  readonly dialog: Locator;
  readonly editor: Locator;
  readonly editorPublish: Locator;
  readonly editorSave: Locator;
  readonly backToPosts: Locator;
  readonly editTab: Locator;
  readonly previewTab: Locator;

  constructor(readonly page: Page) {
    this.sidebarLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
      name: 'Sites',
      exact: true,
    });
    this.settingsCard = page.getByRole('region', { name: 'Sites', exact: true });
    this.addSite = page.getByRole('button', { name: 'Add a site' });
    this.newPost = page.getByRole('button', { name: 'New post' });
    this.rebuild = page.getByRole('button', { name: 'Rebuild site' });
    this.dialog = page.getByRole('dialog');
    this.editor = page.locator('.post-editor .cm-content');
    this.editorPublish = page.locator('.post-editor__actions').getByRole('button', {
      name: 'Publish',
    });
    this.editorSave = page.locator('.post-editor__actions').getByRole('button', { name: 'Save' });
    this.backToPosts = page.getByRole('link', { name: 'Back to the posts' });
    this.editTab = page.getByRole('button', { name: 'Editor', exact: true });
    this.previewTab = page.getByRole('button', { name: 'Preview', exact: true });
  }

  /** A field of the site form or of a dialog, by its label. */
  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  /** Declares a site in the settings' Sites card (the starter stays ticked unless told). */
  async createSite(site: { name: string; title: string; folder: string; serve?: boolean }) {
    await this.page.getByRole('heading', { name: 'Sites', exact: true }).waitFor();
    await this.addSite.click();
    await this.field('Name').fill(site.name);
    await this.field('Title').fill(site.title);
    await this.field('Folder').fill(site.folder);
    if (site.serve) await this.page.getByRole('checkbox', { name: /^Serve the output/ }).check();
    await this.page.getByRole('button', { name: 'Create', exact: true }).click();
  }

  /** The link to a site on the Sites screen. */
  siteLink(title: string): Locator {
    return this.page.getByRole('link', { name: title, exact: true });
  }

  /** A post in the list, by its title. */
  post(title: string): Locator {
    return this.page.getByRole('listitem').filter({
      has: this.page.getByRole('heading', { name: title, exact: true }),
    });
  }

  /** The state badge of a post ("Draft", "Scheduled", "Published"). */
  postState(title: string): Locator {
    return this.post(title).locator('.post__state');
  }

  /** One of a post's buttons or links ("Edit", "Preview", "Publish", "Schedule", …). */
  postAction(title: string, name: string): Locator {
    return this.post(title)
      .getByRole('group')
      .getByRole(name === 'Edit' ? 'link' : 'button', { name, exact: true });
  }

  /** Creates a post through the New post dialog; resolves once the editor shows it. */
  async writePost(title: string) {
    await this.newPost.click();
    await this.dialog.getByLabel('Title', { exact: true }).fill(title);
    await this.dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await this.editor.waitFor();
  }

  /** The live preview's sandboxed frame. */
  previewFrame(): FrameLocator {
    return this.page.frameLocator('iframe.post-preview__frame');
  }

  /** The preview frame element itself (to read its sandbox attribute). */
  previewFrameElement(): Locator {
    return this.page.locator('iframe.post-preview__frame');
  }
}
