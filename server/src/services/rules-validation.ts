import type { Rule } from '@cabinet/protocol';
import { errors } from '../errors.ts';
import { compileRule } from '../fs/rules.ts';

/**
 * Refuses a rule list holding an invalid regex with `400 (invalid rule regex: <pattern>: <why>)`,
 * so that a broken rule is caught when saved rather than when a path is checked. It compiles with
 * the evaluator's own compiler, so what is saved is exactly what the evaluator accepts.
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
