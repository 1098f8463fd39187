import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resource } from '@cabinet/protocol';
import { expect } from 'vitest';

/** Writes, reads and probes files below a server's root (read lazily: the server starts later). */
export function filesUnder(root: () => string) {
  return {
    async put(relative: string, content: string | Buffer = 'x') {
      const file = path.join(root(), relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    },
    read: (relative: string) => readFileSync(path.join(root(), relative), 'utf8'),
    exists: (relative: string) => existsSync(path.join(root(), relative)),
  };
}

/** The JSON body of a reply, which must say it is JSON. */
export async function json<T = Resource>(res: Response): Promise<T> {
  expect(res.headers.get('content-type')).toContain('application/json');
  return (await res.json()) as T;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);
