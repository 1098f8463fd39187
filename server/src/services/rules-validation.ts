import { compileRulePattern, type Rule } from '@cabinet/protocol';
import { errors } from '../errors.ts';

export { compileRulePattern };

/** The compiled matcher of a rule: a RegExp for regex rules, undefined for path rules. */
export function compileRule(rule: Rule): RegExp | undefined {
  if (!rule.regex) return undefined;
  return compileRulePattern(rule.regexp?.raw ?? '');
}

/**
 * Refuses a rule list holding an invalid regex with `400 (invalid rule regex: <pattern>: <why>)`,
 * so that a broken rule is caught when saved rather than when a path is checked.
 */
export function validateRules(rules: readonly Rule[]): void {
  for (const rule of rules) {
    try {
      compileRule(rule);
    } catch (error) {
      const why = (error as Error).message.replace(/^Invalid regular expression: /, '');
      throw errors.badRequest(`invalid rule regex: ${rule.regexp?.raw ?? ''}: ${why}`);
    }
  }
}
