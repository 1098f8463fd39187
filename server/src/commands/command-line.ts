/**
 * Cabinet's own reading of a command line. The reference handed user input to
 * a shell after checking only its first word, so `ls && rm -rf ~` passed an allow-list holding
 * `ls`. Here the line is parsed into argv lists joined by `|`, `&&`, `||` and `;`, and everything a
 * shell would expand or redirect is refused with a message naming it, so that what runs is exactly
 * the words the user typed, each of which the runner checks against the allow-list.
 */

/** How a pipeline is joined to the one before it (the first is always `;`). */
export type ListOperator = ';' | '&&' | '||';

export interface PipelineStep {
  operator: ListOperator;
  /** One argv per command of the pipeline, in order. */
  commands: string[][];
}

export interface ParsedLine {
  steps: PipelineStep[];
  /** The line ended in `&` (only accepted for event hooks). */
  background: boolean;
}

export interface ParseOptions {
  /**
   * Variables `$NAME` and `${NAME}` may name (event hooks' FILE, SCOPE, …). Each expands to its
   * value as part of one word: no word splitting, no globbing, so a file name stays one argument.
   */
  variables?: Readonly<Record<string, string>>;
  /** Accept a trailing `&` (event hooks run such a command in the background). */
  allowBackground?: boolean;
}

/** A line Cabinet refuses to run; the message says what was refused, for the person who typed it. */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

const refused = (what: string) => new CommandLineError(`Refused: ${what} is not allowed.`);

const GLOB_CHARS = new Set(['*', '?', '[']);
const BLANKS = new Set([' ', '\t']);
/** Characters after `$` that a shell would expand (names, positions, specials, `{`, `(`). */
const EXPANDING = /[A-Za-z0-9_{(?$@*#!-]/;

/**
 * Parses a command line. Throws CommandLineError for a refused construct (substitution,
 * redirection, background, globbing, variable expansion, subshell, several lines) or bad syntax.
 */
export function parseCommandLine(line: string, options: ParseOptions = {}): ParsedLine {
  return new LineReader(line, options).read();
}

class LineReader {
  private i = 0;
  private readonly steps: PipelineStep[] = [];
  private commands: string[][] = [];
  private words: string[] = [];
  private word = '';
  /** The current word exists even if empty (`""` is an empty argument). */
  private inWord = false;
  private operator: ListOperator = ';';
  private background = false;

  constructor(
    private readonly line: string,
    private readonly options: ParseOptions,
  ) {}

  read(): ParsedLine {
    if (this.line.trim() === '') throw new CommandLineError('The command line is empty.');
    while (this.i < this.line.length) {
      const c = this.line[this.i]!;
      if (this.background) throw refused('running a command in the background (&)');
      if (BLANKS.has(c)) {
        this.endWord();
        this.i++;
      } else if (c === '\n' || c === '\r') {
        throw refused('more than one line (a newline between commands)');
      } else if (c === "'") {
        this.readSingleQuoted();
      } else if (c === '"') {
        this.readDoubleQuoted();
      } else if (c === '\\') {
        this.readEscape();
      } else if (c === '$') {
        this.readDollar(false);
      } else if (c === '`') {
        throw refused('command substitution (`…`)');
      } else if (c === '>' || c === '<') {
        throw refused(`redirection (${c})`);
      } else if (c === '(' || c === ')') {
        throw refused('a subshell ( … )');
      } else if (c === '|' || c === '&' || c === ';') {
        this.readOperator(c);
      } else if (GLOB_CHARS.has(c)) {
        throw refused(`file name globbing (${c})`);
      } else if (c === '~' && !this.inWord) {
        throw refused('home folder expansion (~)');
      } else {
        this.append(c);
        this.i++;
      }
    }
    this.endCommand(true);
    if (this.commands.length > 0) this.endStep();
    if (this.steps.length === 0) throw new CommandLineError('The command line is empty.');
    return { steps: this.steps, background: this.background };
  }

  private append(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  private endWord(): void {
    if (this.inWord) this.words.push(this.word);
    this.word = '';
    this.inWord = false;
  }

  /** Closes the current command of a pipeline; an empty one is a syntax error unless at the end. */
  private endCommand(atEnd: boolean, near?: string): void {
    this.endWord();
    if (this.words.length === 0) {
      if (atEnd && this.commands.length === 0) return;
      throw new CommandLineError(`Syntax error: a command is missing near "${near ?? 'the end'}".`);
    }
    this.commands.push(this.words);
    this.words = [];
  }

  private endStep(): void {
    this.steps.push({ operator: this.operator, commands: this.commands });
    this.commands = [];
  }

  private readOperator(c: string): void {
    const next = this.line[this.i + 1];
    if (c === '|' && next === '&') throw refused('redirection (|&)');
    if (c === '&' && next === '>') throw refused('redirection (&>)');
    const double = (c === '|' || c === '&') && next === c;
    const op = double ? c + c : c;
    this.i += double ? 2 : 1;
    if (op === '|') {
      this.endCommand(false, '|');
      return;
    }
    if (op === '&') {
      if (!this.options.allowBackground || this.line.slice(this.i).trim() !== '') {
        throw refused('running a command in the background (&)');
      }
      this.endCommand(false, '&');
      this.endStep();
      this.background = true;
      return;
    }
    // A trailing `;` ends the line like a newline would; `&&` and `||` need a command after them.
    this.endCommand(false, op);
    this.endStep();
    this.operator = op as ListOperator;
    if (op !== ';' && this.line.slice(this.i).trim() === '') {
      throw new CommandLineError(`Syntax error: a command is missing after "${op}".`);
    }
  }

  private readSingleQuoted(): void {
    const end = this.line.indexOf("'", this.i + 1);
    if (end < 0) throw new CommandLineError('Syntax error: a single quote is not closed.');
    this.append(this.line.slice(this.i + 1, end));
    this.i = end + 1;
  }

  private readDoubleQuoted(): void {
    this.inWord = true;
    this.i++;
    for (;;) {
      if (this.i >= this.line.length) {
        throw new CommandLineError('Syntax error: a double quote is not closed.');
      }
      const c = this.line[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '`') throw refused('command substitution (`…`)');
      if (c === '$') {
        this.readDollar(true);
        continue;
      }
      if (c === '\\') {
        const next = this.line[this.i + 1];
        if (next === '\n') {
          this.i += 2;
          continue;
        }
        if (next === '"' || next === '\\' || next === '$' || next === '`') {
          this.append(next);
          this.i += 2;
          continue;
        }
      }
      this.append(c);
      this.i++;
    }
  }

  private readEscape(): void {
    const next = this.line[this.i + 1];
    if (next === undefined) throw new CommandLineError('Syntax error: the line ends with "\\".');
    // Backslash-newline joins lines, as in a shell; anything else is taken literally.
    if (next !== '\n') this.append(next);
    this.i += 2;
  }

  /** `$`: a known variable of the options expands; anything a shell would expand is refused. */
  private readDollar(quoted: boolean): void {
    const rest = this.line.slice(this.i + 1);
    if (rest.startsWith('(')) throw refused('command substitution ($(…))');
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    const plain = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    const match = braced ?? plain;
    const variables = this.options.variables;
    if (match && variables && Object.hasOwn(variables, match[1]!)) {
      this.append(variables[match[1]!]!);
      this.i += 1 + match[0].length;
      return;
    }
    if (rest.length > 0 && EXPANDING.test(rest[0]!) && !(quoted && rest[0] === '"')) {
      const name = match ? `$${match[1]}` : `$${rest[0]}`;
      throw refused(`variable expansion (${name})`);
    }
    // A lone `$` (before a blank, a quote or the end) is an ordinary character, as in a shell.
    this.append('$');
    this.i++;
  }
}

/** Quotes one word for a POSIX shell: single quotes, with `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The parsed line written back for a POSIX shell with every word single-quoted, so a configured
 * shell sees exactly the parsed commands and operators and has nothing left to expand.
 */
export function toShellLine(parsed: ParsedLine): string {
  return parsed.steps
    .map((step, index) => {
      const pipeline = step.commands.map((argv) => argv.map(shellQuote).join(' ')).join(' | ');
      return index === 0 ? pipeline : `${step.operator} ${pipeline}`;
    })
    .join(' ');
}
