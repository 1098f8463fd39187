import { describe, expect, it } from 'vitest';
import { AppShell } from '../pages/app-shell.ts';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { routeOf, storedToken } from '../support/session.ts';

const cabinet = withCabinet({ server: { config: { baseURL: '/fb' } } });

describe('under the base URL /fb', () => {
  it('routes, logs in, loads lazy screens and logs out with every URL under /fb', async () => {
    expect(cabinet.server.url).toMatch(/\/fb$/);
    const { context, page, consoleErrors } = await cabinet.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${cabinet.server.url}/settings/profile`);
    await page.waitForURL(/\/fb\/login\?redirect=/);
    expect(routeOf(page, cabinet.server.url)).toBe(
      `/login?redirect=${encodeURIComponent('/settings/profile')}`,
    );
    await new LoginPage(page).login('admin', cabinet.server.admin.password);
    // The settings screens are separate chunks: they must load from /fb/static/.
    await page.waitForURL(`${cabinet.server.url}/settings/profile`);
    await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();

    const cookie = (await context.cookies()).find((c) => c.name === 'auth');
    expect(cookie?.path).toBe('/fb/');
    expect(cookie?.value).toBe(await storedToken(page));
    expect(cookie?.sameSite).toBe('Strict');

    const shell = new AppShell(page);
    await shell.myFiles.click();
    await page.waitForURL(`${cabinet.server.url}/files/`);
    await shell.logout();
    await page.waitForURL(`${cabinet.server.url}/login`);

    const outside = requests.filter((p) => !p.startsWith('/fb/'));
    expect(outside).toEqual([]);
    expect(requests.some((p) => /^\/fb\/static\/assets\/.+\.js$/.test(p))).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});
