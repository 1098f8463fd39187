/**
 * Subtitle conversion to WebVTT, the only format browsers' <track> reads. Both converters work line
 * by line over an async stream of lines (text-lines.ts), so any file size converts in flat memory.
 */

const HEADER = 'WEBVTT\n\n';

/** `H:MM:SS,mmm` style time (SRT: comma or dot, 1–3 fraction digits) → `HH:MM:SS.mmm`. */
function vttTime(hours: string, minutes: string, seconds: string, fraction: string): string {
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  return `${hours.padStart(2, '0')}:${minutes.padStart(2, '0')}:${seconds.padStart(2, '0')}.${millis}`;
}

const SRT_TIMING =
  /^\s*(\d+):(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?\s*-->\s*(\d+):(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?/;

/**
 * A line of cue text made safe for WebVTT: `-->` would start a new timing, an empty line would
 * end the cue. `<br>` tags (which SRT files use for line breaks) become real breaks, and SSA
 * override blocks such as `{\an8}` that SRT files sometimes carry are dropped. Basic tags
 * (<i>, <b>, <u>) are kept: WebVTT understands them.
 */
function srtTextLines(line: string): string[] {
  return line
    .replace(/\{\\[^}]*\}/g, '')
    .replace(/<\/?font[^>]*>/gi, '')
    .replaceAll('-->', '→')
    .split(/<br\s*\/?>/i)
    .filter((part) => part.trim() !== '');
}

/** SubRip (.srt) to WebVTT: timing commas become dots, cue numbers stay as cue identifiers. */
export async function* srtToVtt(lines: AsyncIterable<string>): AsyncGenerator<string> {
  yield HEADER;
  // 'gap': between cues; 'cue': inside cue text.
  let state: 'gap' | 'cue' = 'gap';
  let identifier: string | undefined;
  for await (const line of lines) {
    const timing = SRT_TIMING.exec(line);
    if (timing) {
      const [, h1, m1, s1, f1 = '', h2, m2, s2, f2 = ''] = timing;
      if (state === 'cue') yield '\n';
      if (identifier !== undefined) yield `${identifier}\n`;
      identifier = undefined;
      yield `${vttTime(h1!, m1!, s1!, f1)} --> ${vttTime(h2!, m2!, s2!, f2)}\n`;
      state = 'cue';
      continue;
    }
    if (line.trim() === '') {
      if (state === 'cue') yield '\n';
      state = 'gap';
      identifier = undefined;
      continue;
    }
    if (state === 'gap') {
      // A line before a timing is the cue number; a second one means it was stray text.
      identifier = /^\d+$/.test(line.trim()) ? line.trim() : undefined;
      continue;
    }
    for (const part of srtTextLines(line)) yield `${part}\n`;
  }
  if (state === 'cue') yield '\n';
}

/** The default field order of [Events] when a file has no Format line (ASS and SSA). */
const DEFAULT_FORMAT = [
  'layer',
  'start',
  'end',
  'style',
  'name',
  'marginl',
  'marginr',
  'marginv',
  'effect',
  'text',
];

const ASS_TIME = /^\s*(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?\s*$/;

function assTime(value: string | undefined): string | undefined {
  const match = value === undefined ? null : ASS_TIME.exec(value);
  if (!match) return undefined;
  const [, hours, minutes, seconds, fraction = ''] = match;
  // ASS fractions are centiseconds ("0:00:01.50" is 1.5 s): pad on the right, not the left.
  return vttTime(hours!, minutes!, seconds!, fraction);
}

function escapeVtt(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * The visible text of an ASS Text field: override blocks (`{\i1}`, `{\pos(…)}`) removed, drawing
 * commands (between `{\p1}` and `{\p0}`) dropped, `\N`/`\n` as line breaks, `\h` as a hard space.
 */
export function assText(raw: string): string[] {
  let visible = '';
  let drawing = false;
  for (const part of raw.split(/(\{[^}]*\})/)) {
    if (part.startsWith('{') && part.endsWith('}')) {
      const mode = /\\p(\d+)/.exec(part);
      if (mode) drawing = mode[1] !== '0';
      continue;
    }
    if (!drawing) visible += part;
  }
  return visible
    .replace(/\\[Nn]/g, '\n')
    .replaceAll('\\h', '\u00a0')
    .split('\n')
    .map((line) => escapeVtt(line).replaceAll('--&gt;', '→'))
    .filter((line) => line.trim() !== '');
}

/** Advanced SubStation Alpha and SubStation Alpha (.ass, .ssa) to WebVTT: Dialogue lines only. */
export async function* assToVtt(lines: AsyncIterable<string>): AsyncGenerator<string> {
  yield HEADER;
  let section = '';
  let format = DEFAULT_FORMAT;
  for await (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
      section = trimmed.toLowerCase();
      continue;
    }
    if (section !== '[events]') continue;
    const colon = trimmed.indexOf(':');
    if (colon < 0) continue;
    const kind = trimmed.slice(0, colon).toLowerCase();
    const rest = trimmed.slice(colon + 1);
    if (kind === 'format') {
      format = rest.split(',').map((field) => field.trim().toLowerCase());
      continue;
    }
    if (kind !== 'dialogue') continue;
    // Text is the last field and may itself hold commas: split only format.length - 1 times.
    const fields: string[] = [];
    let remaining = rest;
    for (let i = 0; i < format.length - 1; i++) {
      const comma = remaining.indexOf(',');
      if (comma < 0) break;
      fields.push(remaining.slice(0, comma));
      remaining = remaining.slice(comma + 1);
    }
    fields.push(remaining);
    const field = (name: string) => fields[format.indexOf(name)];
    const start = assTime(field('start'));
    const end = assTime(field('end'));
    const text = assText(field('text') ?? '');
    if (!start || !end || text.length === 0) continue;
    yield `${start} --> ${end}\n${text.join('\n')}\n\n`;
  }
}
