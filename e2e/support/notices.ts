import type { BrowserContext, Page } from 'playwright-core';

/** One notification as it was shown: its kind (success, error, info) and its words. */
interface ShownNotice {
  kind: string;
  message: string;
}

declare global {
  interface Window {
    __cabinetNotices?: ShownNotice[];
  }
}

/**
 * Runs in every page before the app: writes down each notification the moment it is on screen.
 * Success notices hide after a second, which a loaded machine can let pass before a test looks,
 * so tests read this record instead of racing the toast.
 */
function recordNotices(): void {
  const shown: ShownNotice[] = (window.__cabinetNotices = []);
  const seen = new WeakMap<Element, string>();
  new MutationObserver(() => {
    for (const toast of document.querySelectorAll('.toast')) {
      const message = toast.querySelector('.toast__message')?.textContent ?? '';
      if (seen.get(toast) === message) continue;
      seen.set(toast, message);
      shown.push({ kind: toast.getAttribute('data-kind') ?? '', message });
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/** Makes every page of the context keep the record `waitForNotice` reads. */
export async function recordNoticesIn(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordNotices);
}

/**
 * Waits until a notification whose words contain `text` (or match it) has been shown on this
 * page since it loaded, whether or not it is still on screen, and takes it off the record so the
 * next wait needs a new one.
 */
export async function waitForNotice(
  page: Page,
  text: string | RegExp,
  { kind = 'success', timeout }: { kind?: 'success' | 'error' | 'info'; timeout?: number } = {},
): Promise<void> {
  const pattern =
    typeof text === 'string'
      ? { source: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags: '' }
      : { source: text.source, flags: text.flags };
  await page.waitForFunction(
    ({ pattern, kind }) => {
      const shown = window.__cabinetNotices ?? [];
      const matches = new RegExp(pattern.source, pattern.flags);
      const index = shown.findIndex((n) => n.kind === kind && matches.test(n.message));
      if (index < 0) return false;
      shown.splice(index, 1);
      return true;
    },
    { pattern, kind },
    { timeout },
  );
}
