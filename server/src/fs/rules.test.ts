import type { Rule } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { compileRuleRegex, RuleSet } from './rules.ts';

const block = (path: string): Rule => ({ regex: false, allow: false, path, regexp: null });
const allow = (path: string): Rule => ({ regex: false, allow: true, path, regexp: null });
const blockRegex = (raw: string): Rule => ({
  regex: true,
  allow: false,
  path: '',
  regexp: { raw },
});
const allowRegex = (raw: string): Rule => ({ regex: true, allow: true, path: '', regexp: { raw } });

describe('RuleSet', () => {
  it('allows everything without rules', () => {
    const rules = new RuleSet([]);
    expect(rules.isEmpty).toBe(true);
    expect(rules.allows('/anything')).toBe(true);
  });

  it.each([
    ['/uploads', true],
    ['/uploads/a/b', true],
    ['/uploads_backup', false],
    ['/uploadsx/y', false],
    ['/other', false],
    ['/', false],
  ])('path rule /uploads matches %j on segment boundaries: %s', (path, blocked) => {
    expect(new RuleSet([block('/uploads')]).allows(path)).toBe(!blocked);
  });

  it('treats rule paths with a trailing slash or no leading slash like the clean path', () => {
    expect(new RuleSet([block('/uploads/')]).allows('/uploads/x')).toBe(false);
    expect(new RuleSet([block('uploads')]).allows('/uploads')).toBe(false);
    expect(new RuleSet([block('uploads')]).allows('/uploads_backup')).toBe(true);
  });

  it('matches everything with the rule /', () => {
    const rules = new RuleSet([block('/')]);
    expect(rules.allows('/')).toBe(false);
    expect(rules.allows('/a/b')).toBe(false);
  });

  it('lets the last matching rule win, global before user', () => {
    const rules = new RuleSet([block('/'), allow('/public'), block('/public/secret')]);
    expect(rules.allows('/x')).toBe(false);
    expect(rules.allows('/public/a')).toBe(true);
    expect(rules.allows('/public/secret/b')).toBe(false);
  });

  it('folds case of path rules only on case-insensitive file systems', () => {
    expect(new RuleSet([block('/Private')], true).allows('/pRIVATE/x')).toBe(false);
    expect(new RuleSet([block('/Private')], false).allows('/private/x')).toBe(true);
  });

  it('matches regex rules unanchored, never case-folded unless asked', () => {
    const rules = new RuleSet([blockRegex('\\.secret$')], true);
    expect(rules.allows('/a/b.secret')).toBe(false);
    expect(rules.allows('/a/b.SECRET')).toBe(true);
    expect(new RuleSet([blockRegex('(?i)\\.secret$')]).allows('/a/b.SECRET')).toBe(false);
    expect(new RuleSet([blockRegex('priv')]).allows('/x/unprivileged')).toBe(false);
  });

  it('fails closed on an invalid expression', () => {
    expect(new RuleSet([blockRegex('(')]).allows('/a')).toBe(false);
    expect(new RuleSet([block('/'), allowRegex('(')]).allows('/a')).toBe(false);
  });

  it('compiles each expression once', () => {
    expect(compileRuleRegex('abc')).toBe(compileRuleRegex('abc'));
    expect(compileRuleRegex('(?is)a.b')?.flags).toBe('is');
    expect(compileRuleRegex('(?x)a')).toBeNull();
  });
});
