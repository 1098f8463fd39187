import type { Locator, Page } from 'playwright-core';

/** The shell panel and its header toggle. */
export class ShellPanel {
  readonly toggle: Locator;
  readonly panel: Locator;
  readonly output: Locator;
  readonly input: Locator;
  readonly stopButton: Locator;
  readonly closeButton: Locator;

  constructor(readonly page: Page) {
    this.toggle = page.getByRole('banner').getByRole('button', { name: 'Shell' });
    this.panel = page.getByRole('region', { name: 'Shell' });
    this.output = this.panel.getByRole('log', { name: 'Command output' });
    this.input = this.panel.getByRole('textbox', { name: 'Command' });
    this.stopButton = this.panel.getByRole('button', { name: 'Stop' });
    this.closeButton = this.panel.getByRole('button', { name: 'Close the shell' });
  }

  /** Opens the panel from the header. */
  async open(): Promise<void> {
    await this.toggle.click();
    await this.input.waitFor();
  }

  /**
   * Types a line at the prompt and presses Enter, once the previous command has ended: the panel
   * ignores Enter while one runs, and its last line can be on screen before its end arrives.
   */
  async run(line: string): Promise<void> {
    await this.stopButton.waitFor({ state: 'detached' });
    await this.input.fill(line);
    await this.input.press('Enter');
  }

  /** The lines shown in the output, in order. */
  lines(): Promise<string[]> {
    return this.output.locator('pre').allTextContents();
  }

  /** Waits until a line with exactly this text is shown. */
  async waitForLine(text: string): Promise<void> {
    await this.output.locator('pre', { hasText: text }).first().waitFor();
  }
}
