import { compileRulePattern, type Rule } from '@cabinet/protocol';
import { canonicalPath } from './canonical-path.ts';

interface CompiledRule {
  allow: boolean;
  matches(path: string, folded: string): boolean;
}

/** Compiled expressions (or why they do not compile) by source; rules run for every listed entry. */
const regexCache = new Map<string, RegExp | Error>();
const REGEX_CACHE_LIMIT = 2000;

/**
 * Compiles an expression with the rule compiler the web app's rules editor also uses
 * (compileRulePattern: unanchored, RE2 inline flags such as `(?i)` become RegExp flags), once per
 * source. Returns the RegExp or the error that refused it.
 */
function compileCached(raw: string): RegExp | Error {
  const cached = regexCache.get(raw);
  if (cached !== undefined) return cached;
  let compiled: RegExp | Error;
  try {
    compiled = compileRulePattern(raw);
  } catch (error) {
    compiled = error instanceof Error ? error : new SyntaxError(String(error));
  }
  if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.clear();
  regexCache.set(raw, compiled);
  return compiled;
}

/** A rule expression as a RegExp, or null when it is invalid (the evaluator then fails closed). */
export function compileRuleRegex(raw: string): RegExp | null {
  const compiled = compileCached(raw);
  return compiled instanceof RegExp ? compiled : null;
}

/**
 * The compiled matcher of a rule: a RegExp for regex rules, undefined for path rules. Throws the
 * compiler's SyntaxError for an invalid expression, which settings validation turns into a 400.
 */
export function compileRule(rule: Rule): RegExp | undefined {
  if (!rule.regex) return undefined;
  const compiled = compileCached(rule.regexp?.raw ?? '');
  if (compiled instanceof RegExp) return compiled;
  throw compiled;
}

function compileMatcher(rule: Rule, caseInsensitive: boolean): CompiledRule {
  if (rule.regex) {
    const regex = compileRuleRegex(rule.regexp?.raw ?? '');
    if (!regex) {
      // Settings validation refuses invalid expressions; one that slipped in fails closed: a broken
      // block rule blocks everything, a broken allow rule allows nothing.
      return { allow: rule.allow, matches: () => !rule.allow };
    }
    return {
      allow: rule.allow,
      matches: (path) => regex.test(path),
    };
  }
  const base = canonicalPath(rule.path).path;
  const rulePath = caseInsensitive ? base.toLowerCase() : base;
  if (rulePath === '/') return { allow: rule.allow, matches: () => true };
  const prefix = `${rulePath}/`;
  return {
    allow: rule.allow,
    // Segment-boundary match: `/uploads` covers `/uploads/x` but not `/uploads_backup`
    // (GHSA-5q48-q4fm-g3m6).
    matches: (path, folded) => {
      const candidate = caseInsensitive ? folded : path;
      return candidate === rulePath || candidate.startsWith(prefix);
    },
  };
}

/** Global and per-user rules compiled once for one user and evaluated many times. */
export class RuleSet {
  private readonly rules: CompiledRule[];

  /**
   * @param rules global rules first, then the user's: the last matching rule wins.
   * @param caseInsensitive fold path rules (and the checked path) to lower case, for file systems
   *   that fold case, so `/Private` cannot dodge a rule on `/private` (GHSA-fgm5-pw99-w2p7).
   */
  constructor(
    rules: readonly Rule[],
    private readonly caseInsensitive = false,
  ) {
    this.rules = rules.map((rule) => compileMatcher(rule, caseInsensitive));
  }

  /** True when there are no rules at all (descendant checks can then be skipped). */
  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** Whether a canonical virtual path is allowed: start allowed, every matching rule sets the verdict. */
  allows(path: string): boolean {
    let allowed = true;
    const folded = this.caseInsensitive ? path.toLowerCase() : path;
    for (const rule of this.rules) if (rule.matches(path, folded)) allowed = rule.allow;
    return allowed;
  }
}
