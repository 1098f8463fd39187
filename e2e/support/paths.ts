import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The built web app the servers under test serve: web/dist, or CABINET_E2E_WEB_DIST (a build in
 * another folder, so that one checkout can test two builds side by side).
 */
export const WEB_DIST = process.env.CABINET_E2E_WEB_DIST ?? path.join(REPO_ROOT, 'web/dist');

/** Screenshots and other files a run leaves for people to look at (ignored by git). */
export const ARTIFACTS = path.join(REPO_ROOT, 'e2e/.artifacts');
