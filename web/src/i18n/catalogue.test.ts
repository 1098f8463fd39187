import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import { directionOf, normaliseLocale } from './locales.ts';

const SRC = path.resolve(import.meta.dirname, '..');
const SECTIONS = Object.keys(en).join('|');
const KEY = new RegExp(`['\`]((?:${SECTIONS})\\.[A-Za-z]+)['\`]`, 'g');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function lookup(key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => {
    return node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }, en);
}

describe('English catalogue', () => {
  it('has every key the source uses', () => {
    const missing = new Set<string>();
    let found = 0;
    for (const file of sourceFiles(SRC)) {
      for (const [, key] of readFileSync(file, 'utf8').matchAll(KEY)) {
        found += 1;
        // A counted string exists as its plural forms (`key_one`, `key_other`, …).
        const present =
          typeof lookup(key!) === 'string' || typeof lookup(`${key}_other`) === 'string';
        if (!present) missing.add(key!);
      }
    }
    expect(found).toBeGreaterThan(50);
    expect([...missing]).toEqual([]);
  });
});

describe('locales', () => {
  it.each([
    ['pt_BR', 'pt-br'],
    ['ptBR', 'pt-br'],
    ['zh-Hans-CN', 'zh-cn'],
    ['zh-Hant', 'zh-tw'],
    ['EN', 'en'],
  ])('normalises %s to %s', (raw, locale) => {
    expect(normaliseLocale(raw)).toBe(locale);
  });

  it('writes Arabic right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('en')).toBe('ltr');
  });
});
