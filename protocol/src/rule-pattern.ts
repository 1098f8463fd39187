/** Inline flag groups RE2 accepts at the start of a pattern and their JavaScript flags. */
const INLINE_FLAGS: Record<string, string> = { i: 'i', m: 'm', s: 's' };

/**
 * Compiles a regex rule's pattern with JavaScript RegExp semantics. RE2's leading inline flags
 * (`(?i)`, `(?s)`, `(?m)` and combinations such as `(?is)`), common in filebrowser rule sets, are
 * turned into RegExp flags; other RE2-only syntax is refused. Matching is unanchored, as in RE2's
 * MatchString. Throws the JavaScript SyntaxError for an invalid pattern. Shared so that the rules
 * editor marks exactly the patterns the server would refuse.
 */
export function compileRulePattern(raw: string): RegExp {
  let flags = '';
  let pattern = raw;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(raw);
  if (inline) {
    for (const flag of inline[1]!) {
      const mapped = INLINE_FLAGS[flag];
      if (!mapped) throw new SyntaxError(`unsupported inline flag "${flag}"`);
      if (!flags.includes(mapped)) flags += mapped;
    }
    pattern = raw.slice(inline[0].length);
  }
  return new RegExp(pattern, flags);
}
