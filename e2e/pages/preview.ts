import type { Locator, Page } from 'playwright-core';

/** A single file: the preview bar, the viewers, previous/next and the text editor. */
export class PreviewPage {
  readonly toolbar: Locator;
  readonly close: Locator;
  readonly name: Locator;
  readonly rename: Locator;
  readonly delete: Locator;
  readonly download: Locator;
  readonly info: Locator;
  readonly fullSize: Locator;
  readonly edit: Locator;
  readonly previous: Locator;
  readonly next: Locator;
  readonly image: Locator;
  readonly audio: Locator;
  readonly video: Locator;
  readonly pdf: Locator;
  readonly markdown: Locator;
  readonly downloadCard: Locator;
  /** Editor parts. */
  readonly editor: Locator;
  readonly save: Locator;
  readonly search: Locator;
  readonly unsavedMarker: Locator;
  readonly readOnlyMarker: Locator;
  readonly unsavedDialog: Locator;

  constructor(readonly page: Page) {
    this.toolbar = page.getByRole('toolbar', { name: 'File actions' });
    this.close = this.toolbar.getByRole('button', { name: 'Close' });
    this.name = this.toolbar.getByRole('heading', { level: 1 });
    this.rename = this.toolbar.getByRole('button', { name: 'Rename' });
    this.delete = this.toolbar.getByRole('button', { name: 'Delete' });
    this.download = this.toolbar.getByRole('link', { name: 'Download' });
    this.info = this.toolbar.getByRole('button', { name: 'Info' });
    this.fullSize = this.toolbar.getByRole('button', { name: 'Full size' });
    this.edit = this.toolbar.getByRole('button', { name: 'Edit' });
    this.previous = page.getByRole('button', { name: 'Previous', exact: true });
    this.next = page.getByRole('button', { name: 'Next', exact: true });
    this.image = page.locator('.image-viewer img');
    this.audio = page.locator('audio');
    this.video = page.locator('video');
    this.pdf = page.locator('object[type="application/pdf"]');
    this.markdown = page.getByRole('article');
    this.downloadCard = page.locator('.file-fallback');
    this.editor = page.getByRole('textbox', { name: /^Contents of / });
    this.save = this.toolbar.getByRole('button', { name: 'Save' });
    this.search = this.toolbar.getByRole('button', { name: 'Search and replace' });
    this.unsavedMarker = this.toolbar.getByText('Unsaved changes');
    this.readOnlyMarker = this.toolbar.getByText('Read only');
    this.unsavedDialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  }

  /** Opens /files/<path> (already URL-encoded). */
  async goto(serverUrl: string, encodedPath: string): Promise<void> {
    await this.page.goto(`${serverUrl}/files/${encodedPath}`);
  }

  /** Waits until the preview of `name` shows. */
  async waitFor(name: string): Promise<void> {
    await this.toolbar.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  }

  /** The image's CSS transform as its inline style sets it. */
  imageTransform(): Promise<string> {
    return this.image.evaluate((element) => (element as HTMLElement).style.transform);
  }

  /** The editor's whole text. */
  editorText(): Promise<string> {
    return this.page.locator('.cm-content').evaluate((element) => {
      const lines = [...element.querySelectorAll('.cm-line')].map((line) => line.textContent);
      return lines.join('\n');
    });
  }

  /**
   * Controls of the page without an accessible name, as Chromium's accessibility tree computes
   * it (roles button, link, textbox, checkbox, slider); each as "role: HTML id or class".
   */
  async unnamedControls(): Promise<string[]> {
    const session = await this.page.context().newCDPSession(this.page);
    try {
      const { nodes } = (await session.send('Accessibility.getFullAXTree')) as {
        nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
      };
      const controls = new Set(['button', 'link', 'textbox', 'checkbox', 'slider', 'combobox']);
      return nodes
        .filter((node) => !node.ignored && controls.has(node.role?.value ?? ''))
        .filter((node) => !node.name?.value?.trim())
        .map((node) => node.role?.value ?? '?');
    } finally {
      await session.detach();
    }
  }
}
