import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from './options.ts';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');

describe('docs/configuration.md', () => {
  const doc = readFileSync(path.join(DOCS, 'configuration.md'), 'utf8');
  it.each(OPTIONS.map((o) => [o.key, o] as const))(
    'documents %s with its flag and environment variable',
    (_key, option) => {
      const rows = doc
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .map((line) => line.split('|').map((cell) => cell.trim()));
      const row = rows.find((cells) => cells[1] === `\`${option.key}\``);
      expect(row, `row for ${option.key}`).toBeDefined();
      expect(row![2]).toBe(`\`--${option.flag}\``);
      expect(row![3]).toBe(`\`${option.env}\``);
    },
  );
});
