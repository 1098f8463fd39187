import type { Rule } from '@cabinet/protocol';
import { canonicalPath } from './canonical-path.ts';

interface CompiledRule {
  allow: boolean;
  matches(path: string, folded: string): boolean;
}

/** Compiled regular expressions by source; rules are evaluated for every listed entry. */
const regexCache = new Map<string, RegExp | null>();
const REGEX_CACHE_LIMIT = 2000;

/** RE2 inline flags accepted at the start of a pattern, as JavaScript RegExp flags. */
const INLINE_FLAGS: Record<string, string> = { i: 'i', m: 'm', s: 's' };

/**
 * Compiles a rule's expression as a JavaScript RegExp (unanchored, like RE2's MatchString). Leading
 * RE2 inline flags such as `(?i)` or `(?is)`, common in filebrowser rule sets, become RegExp flags.
 * Returns null when the expression is invalid (settings validation refuses those with a 400).
 */
export function compileRuleRegex(raw: string): RegExp | null {
  const cached = regexCache.get(raw);
  if (cached !== undefined) return cached;
  let compiled: RegExp | null = null;
  try {
    let flags = '';
    let pattern = raw;
    const inline = /^\(\?([a-zA-Z]+)\)/.exec(raw);
    if (inline) {
      for (const flag of inline[1]!) {
        const mapped = INLINE_FLAGS[flag];
        if (!mapped) throw new SyntaxError(`unsupported inline flag ${flag}`);
        if (!flags.includes(mapped)) flags += mapped;
      }
      pattern = raw.slice(inline[0].length);
    }
    compiled = new RegExp(pattern, flags);
  } catch {
    compiled = null;
  }
  if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.clear();
  regexCache.set(raw, compiled);
  return compiled;
}

function compileRule(rule: Rule, caseInsensitive: boolean): CompiledRule {
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
    this.rules = rules.map((rule) => compileRule(rule, caseInsensitive));
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
