import { describe, expect, it } from 'vitest';
import { latin1Source } from '../scripts/bundle.mjs';

describe('latin1Source', () => {
  it('writes characters beyond Latin-1 as escapes that mean the same in code', () => {
    const source = [
      '// A dash – and an ellipsis … in a comment; µ and × are Latin-1 and stay.',
      "const unit = /(ns|µs|μs)/.exec('3μs')[1];",
      "const label = 'naïve … 名前 😀';",
      'return [unit, label];',
    ].join('\n');
    const written = latin1Source(source);

    expect([...written].every((char) => char.codePointAt(0)! <= 0xff)).toBe(true);
    expect(written).toContain('µ and ×');
    expect(new Function(written)()).toEqual(new Function(source)());
    expect(new Function(written)()).toEqual(['μs', 'naïve … 名前 😀']);
  });
});
