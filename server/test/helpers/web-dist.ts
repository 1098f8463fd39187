import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PageConfig } from '@cabinet/protocol';

export const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <link rel="icon" href="/__CABINET_BASE__/static/favicon.svg" />
    <title>Cabinet</title>
    <!--cabinet-config-->
    <script type="module" src="/__CABINET_BASE__/static/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

export const BIG_ASSET = 'export const words = "cabinet";\n'.repeat(200);

/** A tiny stand-in for web/dist so these tests never depend on the real build. */
export async function fakeDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-dist-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'assets/index-abc123.js'), 'console.log("app");\n');
  await writeFile(path.join(dir, 'assets/big-def456.js'), BIG_ASSET);
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

/** Reads window.FileBrowser back out of a rendered page. */
export function pageConfigOf(html: string): PageConfig {
  const match = /window\.FileBrowser = (.*?); window\.__prependStaticUrl/.exec(html);
  return JSON.parse(match![1]!) as PageConfig;
}
