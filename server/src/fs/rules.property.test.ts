/**
 * Random rule sets against a small reference model of what the rules mean (SPEC.md "Rules",
 * docs/scoped-fs.md): start allowed; every matching rule, global ones first, sets the verdict; a
 * path rule covers its folder and everything under it on segment boundaries; a regex rule is an
 * unanchored search of the virtual path; an expression that does not compile fails closed.
 */
import type { Rule } from '@cabinet/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../testing/hostile-paths.ts';
import { RuleSet } from './rules.ts';

/** Segments after resolving `.`, `..` and empty ones, the way a reader of the spec would. */
function segmentsOf(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

function modelMatches(rule: Rule, path: string, foldCase: boolean): boolean {
  if (rule.regex) {
    const raw = rule.regexp?.raw ?? '';
    const insensitive = raw.startsWith('(?i)');
    let regex: RegExp;
    try {
      regex = new RegExp(insensitive ? raw.slice(4) : raw, insensitive ? 'i' : '');
    } catch {
      return !rule.allow;
    }
    return regex.test(path);
  }
  const fold = (s: string) => (foldCase ? s.toLowerCase() : s);
  const ruleSegments = segmentsOf(rule.path).map(fold);
  const pathSegments = segmentsOf(path).map(fold);
  return (
    ruleSegments.length <= pathSegments.length &&
    ruleSegments.every((segment, index) => segment === pathSegments[index])
  );
}

function modelAllows(rules: Rule[], path: string, foldCase: boolean): boolean {
  return rules.reduce(
    (verdict, rule) => (modelMatches(rule, path, foldCase) ? rule.allow : verdict),
    true,
  );
}

const NAMES = ['a', 'b', 'dir', 'Dir', 'uploads', 'uploads_backup', 'secret.key', 'SECRET', '.env'];
const PATTERNS = [
  '\\.key$',
  '^/dir',
  'b/',
  'secret',
  '(?i)secret',
  '^/$',
  '^/uploads$',
  '[',
  '(?i)^/DIR/',
];

const path = fc
  .array(fc.constantFrom(...NAMES), { maxLength: 4 })
  .map((segments) => `/${segments.join('/')}`);

const rulePath = fc
  .tuple(fc.array(fc.constantFrom(...NAMES, '.', '..', ''), { maxLength: 3 }), fc.boolean())
  .map(([segments, trailing]) => `/${segments.join('/')}${trailing ? '/' : ''}`);

const rule: fc.Arbitrary<Rule> = fc.oneof(
  fc.record({
    regex: fc.constant(false),
    allow: fc.boolean(),
    path: rulePath,
    regexp: fc.constant(null),
  }),
  fc.record({
    regex: fc.constant(true),
    allow: fc.boolean(),
    path: fc.constant(''),
    regexp: fc.constantFrom(...PATTERNS).map((raw) => ({ raw })),
  }),
);

describe('rules against the reference model', () => {
  it.each([
    ['case-sensitive', false],
    ['case-folding', true],
  ])('agrees on random rule sets and paths (%s file system)', (_name, foldCase) => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 6 }),
        fc.array(path, { minLength: 1, maxLength: 8 }),
        (rules, paths) => {
          const set = new RuleSet(rules, foldCase);
          for (const p of paths) expect(set.allows(p)).toBe(modelAllows(rules, p, foldCase));
        },
      ),
      { numRuns: fuzzRuns(2000) },
    );
  });
});
