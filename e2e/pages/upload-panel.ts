import type { Locator, Page } from 'playwright-core';

/** The header's Upload menu and the bottom-right upload panel. */
export class UploadPanel {
  /** The header's Upload menu button (only for users with the create permission). */
  readonly uploadButton: Locator;
  readonly panel: Locator;
  readonly total: Locator;
  readonly summary: Locator;
  readonly cancelAll: Locator;
  readonly details: Locator;

  constructor(readonly page: Page) {
    this.uploadButton = page
      .getByRole('banner')
      .getByRole('button', { name: 'Upload', exact: true });
    this.panel = page.getByRole('region', { name: 'Uploads' });
    this.total = this.panel.getByRole('progressbar', { name: 'Total upload progress' });
    this.summary = this.panel.locator('.corner-panel__summary');
    this.cancelAll = this.panel.getByRole('button', { name: 'Cancel all' });
    this.details = this.panel.getByRole('button', { name: 'Show upload details' });
  }

  /** Chooses files through Upload › Upload files (the browser's file chooser). */
  async uploadFiles(paths: string[]): Promise<void> {
    await this.choose('Upload files', paths);
  }

  /** Chooses a whole folder through Upload › Upload folder. */
  async uploadFolder(directory: string): Promise<void> {
    await this.choose('Upload folder', directory);
  }

  private async choose(item: string, files: string | string[]): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.uploadButton.click();
    await this.page.getByRole('menuitem', { name: item }).click();
    await (await chooser).setFiles(files);
  }

  /** A job's row in the panel, by the name it shows (its path inside the upload). */
  row(label: string): Locator {
    return this.panel.getByRole('listitem').filter({ hasText: label });
  }

  /** A job's own progress bar. */
  progress(label: string): Locator {
    return this.panel.getByRole('progressbar', { name: label, exact: true });
  }

  /** The button that cancels a waiting or running job. */
  cancel(label: string): Locator {
    return this.panel.getByRole('button', { name: `Cancel upload of ${label}`, exact: true });
  }

  /** The button that removes a failed job from the panel. */
  dismiss(label: string): Locator {
    return this.panel.getByRole('button', { name: `Remove ${label} from the list`, exact: true });
  }

  /** The value of a progress bar (0–100). */
  async percent(bar: Locator): Promise<number> {
    return Number(await bar.getAttribute('aria-valuenow'));
  }
}
