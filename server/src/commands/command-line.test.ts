import { describe, expect, it } from 'vitest';
import { CommandLineError, parseCommandLine, shellQuote, toShellLine } from './command-line.ts';

/** The argv lists of a parsed line, flattened, with their operators. */
function shape(line: string, options = {}) {
  const parsed = parseCommandLine(line, options);
  return parsed.steps.map((s) => [s.operator, ...s.commands]);
}

describe('parseCommandLine', () => {
  it.each([
    ['ls', [[';', ['ls']]]],
    ['  ls   -la  ', [[';', ['ls', '-la']]]],
    ['echo "a b" c', [[';', ['echo', 'a b', 'c']]]],
    ['echo \'a "b" $HOME *\'', [[';', ['echo', 'a "b" $HOME *']]]],
    ['echo a\\ b', [[';', ['echo', 'a b']]]],
    ['echo \\*', [[';', ['echo', '*']]]],
    ['echo "x\\"y\\\\z\\$"', [[';', ['echo', 'x"y\\z$']]]],
    ['echo "a\\nb"', [[';', ['echo', 'a\\nb']]]],
    ['echo ""', [[';', ['echo', '']]]],
    ["echo a''b", [[';', ['echo', 'ab']]]],
    ['echo $ "$"', [[';', ['echo', '$', '$']]]],
    ['echo a~b', [[';', ['echo', 'a~b']]]],
    ['echo "~"', [[';', ['echo', '~']]]],
    ['echo a\\\nb', [[';', ['echo', 'ab']]]],
    ['echo "multi\nline"', [[';', ['echo', 'multi\nline']]]],
    ['ls | grep x', [[';', ['ls'], ['grep', 'x']]]],
    [
      'ls && echo ok || echo no; pwd;',
      [
        [';', ['ls']],
        ['&&', ['echo', 'ok']],
        ['||', ['echo', 'no']],
        [';', ['pwd']],
      ],
    ],
    ['a|b|c', [[';', ['a'], ['b'], ['c']]]],
  ])('reads %j', (line, expected) => {
    expect(shape(line)).toEqual(expected);
  });

  it.each([
    ['$(rm x)', 'command substitution ($(…))'],
    ['echo "$(rm x)"', 'command substitution ($(…))'],
    ['echo `rm x`', 'command substitution (`…`)'],
    ['echo "`rm x`"', 'command substitution (`…`)'],
    ['ls > file', 'redirection (>)'],
    ['ls 2>/dev/null', 'redirection (>)'],
    ['cat < file', 'redirection (<)'],
    ['ls &> f', 'redirection (&>)'],
    ['ls |& cat', 'redirection (|&)'],
    ['sleep 10 &', 'background (&)'],
    ['sleep 10 & ls', 'background (&)'],
    ['ls\nrm x', 'more than one line'],
    ['ls\r\nrm x', 'more than one line'],
    ['ls *', 'globbing (*)'],
    ['ls file?.txt', 'globbing (?)'],
    ['ls [ab]', 'globbing ([)'],
    ['echo $HOME', 'variable expansion ($HOME)'],
    ['echo "${HOME}"', 'variable expansion ($HOME)'],
    ['echo $?', 'variable expansion ($?)'],
    ['echo $1', 'variable expansion ($1)'],
    ['ls ~', 'home folder expansion (~)'],
    ['(rm x)', 'a subshell'],
  ])('refuses %j, naming %s', (line, what) => {
    expect(() => parseCommandLine(line)).toThrowError(CommandLineError);
    expect(() => parseCommandLine(line)).toThrowError(what);
    expect(() => parseCommandLine(line)).toThrowError(/^Refused: /);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['echo "open', 'double quote is not closed'],
    ["echo 'open", 'single quote is not closed'],
    ['echo \\', 'ends with'],
    ['| ls', 'missing near "|"'],
    ['ls |', 'missing near "the end"'],
    ['ls && ', 'missing after "&&"'],
    ['ls ||', 'missing after "||"'],
    ['ls ;; pwd', 'missing near ";"'],
    ['; ls', 'missing near ";"'],
  ])('reports the syntax error in %j', (line, message) => {
    expect(() => parseCommandLine(line)).toThrowError(message);
  });

  it('expands only the variables it is given, each as part of one word', () => {
    const variables = { FILE: '/srv/a b;$(rm x)*.txt', USERNAME: 'ann' };
    expect(shape('notify $FILE "${USERNAME}:$FILE" x$USERNAME', { variables })).toEqual([
      [';', ['notify', '/srv/a b;$(rm x)*.txt', 'ann:/srv/a b;$(rm x)*.txt', 'xann']],
    ]);
    expect(() => parseCommandLine('echo $SECRET', { variables })).toThrowError(
      'variable expansion ($SECRET)',
    );
  });

  it('accepts a trailing & only when asked, and reports it', () => {
    expect(
      parseCommandLine('backup $FILE &', { allowBackground: true, variables: { FILE: 'f' } }),
    ).toEqual({ steps: [{ operator: ';', commands: [['backup', 'f']] }], background: true });
    expect(() => parseCommandLine('a & b', { allowBackground: true })).toThrowError('background');
    expect(parseCommandLine('a', { allowBackground: true }).background).toBe(false);
  });
});

describe('toShellLine', () => {
  it('quotes every word so a shell has nothing left to expand', () => {
    const parsed = parseCommandLine(`echo "it's" '$HOME' a\\*b && ls -l | wc -l; pwd`);
    expect(toShellLine(parsed)).toBe(
      `'echo' 'it'\\''s' '$HOME' 'a*b' && 'ls' '-l' | 'wc' '-l' ; 'pwd'`,
    );
  });

  it('writes a single quote so that it closes and reopens the quoting', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});
