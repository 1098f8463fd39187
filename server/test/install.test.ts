import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
  dev?: boolean;
}

describe('install hygiene', () => {
  it('every locked package accepts the oldest Node version Cabinet supports', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const oldest = semver.minVersion(manifest.engines.node)?.version;
    expect(oldest).toBe('20.19.0');
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockPackage>;
    };
    // npm ci prints EBADENGINE for each of these; a fresh install must print none.
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
        return range !== undefined && !semver.satisfies(oldest as string, range);
      })
      .map(([where, pkg]) => `${where}@${pkg.version ?? '?'}`);
    expect(refusing).toEqual([]);
  });
});
