import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.ts';

/**
 * Checks every catalogue present in locales/ against English: the same keys, the plural forms
 * its language needs, the same placeholders, nothing empty and no English left behind.
 */
const DIR = path.resolve(import.meta.dirname, 'locales');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([\w.]+)[^}]*\}\}/g;

/**
 * Words a translation may keep as in English (compared without placeholders and punctuation):
 * names, codes and keyboard keys, then per locale the words its speakers really write. Add a word
 * only when it is the right translation, never to silence a missing one.
 */
const SAME_EVERYWHERE = [
  'Admin',
  'Administrator',
  'Audio',
  'Cabinet',
  'Ctrl + click',
  'Ctrl + F',
  'Ctrl + S',
  'Info',
  'Login',
  'Logout',
  'PDF',
  'Regex',
  'Shell',
  'Status',
  'Video',
];
/** Keys naming a keyboard key, which keyboards print in English. */
const KEYBOARD_KEYS = new Set(['help.delete']);
const SAME_IN: Record<string, string[]> = {
  de: ['Version', 'Uploads', 'Downloads', 'Name', 'Link', 'Text'],
  fr: [
    'Version',
    'Notifications',
    'Sessions',
    'Documentation',
    'Minutes',
    'Permanent',
    'Images',
    'Action',
  ],
  it: ['Password'],
  'nl-be': ['Uploads', 'Downloads', 'Permanent', 'Version', 'Filters'],
  pl: ['Folder'],
  'pt-br': ['Downloads'],
  ro: ['Permanent'],
  'sv-se': ['Version', 'Permanent'],
};

/** Letters and digits outside placeholders: what tells a translated string from English. */
function wording(value: string): string {
  return value.replace(PLACEHOLDER, '').replace(/[^\p{L}\p{N}]/gu, '');
}

function flatten(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') {
        for (const [k, v] of flatten(value, name)) out.set(k, v);
      } else {
        out.set(name, value);
      }
    }
  }
  return out;
}

function placeholders(value: string): string[] {
  return [...new Set([...value.matchAll(PLACEHOLDER)].map((m) => m[1]!))].sort();
}

function read(file: string): Map<string, unknown> {
  return flatten(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
}

const english = read('en.json') as Map<string, string>;
/** English plural keys grouped by base: "search.count" → its _one/_other strings. */
const englishPlurals = new Map<string, string>();
const englishPlain = new Map<string, string>();
for (const [key, value] of english) {
  if (PLURAL_SUFFIX.test(key)) englishPlurals.set(key.replace(PLURAL_SUFFIX, ''), value);
  else englishPlain.set(key, value);
}
for (const [base] of englishPlurals) englishPlurals.set(base, english.get(`${base}_other`) ?? '');

const files = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'en.json');
const catalogues = files.map((file) => [file.replace(/\.json$/, ''), file] as const);

describe('catalogue files', () => {
  it('are named by the locale codes of the settings', () => {
    const codes: readonly string[] = LOCALES;
    expect(catalogues.map(([code]) => code).filter((code) => !codes.includes(code))).toEqual([]);
  });

  it('English has _one and _other for every plural key, with the same placeholders', () => {
    for (const base of englishPlurals.keys()) {
      const one = english.get(`${base}_one`);
      const other = english.get(`${base}_other`);
      expect(typeof one, `${base}_one`).toBe('string');
      expect(typeof other, `${base}_other`).toBe('string');
      expect(placeholders(other!), base).toContain('count');
    }
  });
});

describe.runIf(catalogues.length > 0).each(catalogues)('the %s catalogue', (code, file) => {
  const catalogue = read(file);
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;

  it('has every key of English and no other, none of them empty', () => {
    const expected = new Set(englishPlain.keys());
    for (const base of englishPlurals.keys()) {
      for (const category of categories) expected.add(`${base}_${category}`);
    }
    const present = new Set(catalogue.keys());
    const missing = [...expected].filter((key) => !present.has(key));
    const extra = [...present].filter(
      (key) =>
        !expected.has(key) &&
        !(PLURAL_SUFFIX.test(key) && englishPlurals.has(key.replace(PLURAL_SUFFIX, ''))),
    );
    const empty = [...catalogue].filter(([, v]) => typeof v !== 'string' || v.trim() === '');
    expect(missing, 'missing keys').toEqual([]);
    expect(extra, 'keys English does not have').toEqual([]);
    expect(
      empty.map(([k]) => k),
      'empty or non-string values',
    ).toEqual([]);
  });

  it(`has the plural forms ${code} needs (${categories.join(', ')}) for every plural key`, () => {
    const wrong: string[] = [];
    for (const base of englishPlurals.keys()) {
      for (const category of categories) {
        if (typeof catalogue.get(`${base}_${category}`) !== 'string')
          wrong.push(`${base}_${category}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the placeholders of English', () => {
    const wrong: string[] = [];
    for (const [key, value] of catalogue) {
      if (typeof value !== 'string') continue;
      const base = key.replace(PLURAL_SUFFIX, '');
      const plural = PLURAL_SUFFIX.test(key) && englishPlurals.has(base);
      const source = plural ? englishPlurals.get(base)! : englishPlain.get(key);
      if (source === undefined) continue;
      const want = placeholders(source);
      const got = placeholders(value);
      // A plural form for exactly one item may spell the number out ("ein Ergebnis").
      const wantHere = plural && !key.endsWith('_other') ? want.filter((p) => p !== 'count') : want;
      const ok = wantHere.every((p) => got.includes(p)) && got.every((p) => want.includes(p));
      if (!ok) wrong.push(`${key}: ${JSON.stringify(value)} (English: ${JSON.stringify(source)})`);
    }
    expect(wrong).toEqual([]);
  });

  it('leaves no English behind except names', () => {
    const allowed = new Set([...SAME_EVERYWHERE, ...(SAME_IN[code] ?? [])].map(wording));
    const untranslated: string[] = [];
    for (const [key, value] of catalogue) {
      const source = englishPlain.get(key) ?? english.get(key);
      if (typeof value !== 'string' || value !== source) continue;
      if (KEYBOARD_KEYS.has(key) || wording(value).length <= 5 || allowed.has(wording(value)))
        continue;
      untranslated.push(`${key}: ${JSON.stringify(value)}`);
    }
    expect(untranslated).toEqual([]);
  });
});
