import { compileRulePattern, type Rule } from '@cabinet/protocol';

/** A new row: allow, a path rule, empty path and pattern. */
export function newRule(): Rule {
  return { allow: true, regex: false, path: '', regexp: { raw: '' } };
}

/** The text a row edits: its pattern when Regex is ticked, its path otherwise. */
export function ruleText(rule: Rule): string {
  return rule.regex ? (rule.regexp?.raw ?? '') : rule.path;
}

/** The rule with its text replaced (the pattern or the path, whichever the row shows). */
export function withRuleText(rule: Rule, text: string): Rule {
  return rule.regex ? { ...rule, regexp: { raw: text } } : { ...rule, path: text };
}

/** Why a row's pattern would be refused by the server, or undefined when it is fine. */
export function ruleProblem(rule: Rule): string | undefined {
  if (!rule.regex) return undefined;
  try {
    compileRulePattern(rule.regexp?.raw ?? '');
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

/** True when any row holds a pattern the server would refuse. */
export function hasInvalidRule(rules: readonly Rule[]): boolean {
  return rules.some((rule) => ruleProblem(rule) !== undefined);
}
