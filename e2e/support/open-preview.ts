import type { Page } from 'playwright-core';
import { PreviewPage } from '../pages/preview.ts';
import type { Cabinet } from './cabinet.ts';
import { loginThroughForm } from './session.ts';

/** An account to sign in with; the admin's when a test names none. */
export interface Credentials {
  username: string;
  password: string;
}

/** Signs in through the form on a fresh page and opens a file's preview, waiting for its name. */
export async function openPreview(
  cabinet: Cabinet,
  encodedPath: string,
  name: string,
  options: { user?: Credentials; width?: number } = {},
): Promise<{ page: Page; preview: PreviewPage }> {
  const { page } = await cabinet.newPage(
    options.width === undefined ? {} : { width: options.width },
  );
  const user = options.user ?? { username: 'admin', password: cabinet.server.admin.password };
  await loginThroughForm(page, cabinet.server.url, user.username, user.password);
  const preview = new PreviewPage(page);
  await preview.goto(cabinet.server.url, encodedPath);
  await preview.waitFor(name);
  return { page, preview };
}
