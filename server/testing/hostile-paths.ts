/**
 * Generators of hostile paths for the property-based boundary tests (docs/security.md, "Fuzzed
 * boundaries"). One pool of segments serves the ScopedFs properties (decoded virtual paths) and the
 * HTTP ones (the same segments percent-encoded the ways clients and attackers encode them), so every
 * route that takes a path is driven by the same generator.
 */
import fc from 'fast-check';

/** Segments that try to climb, confuse a decoder or a normaliser, or break a C API. */
export const CLIMBING_SEGMENTS = [
  '..',
  '.',
  '',
  '...',
  '..\\..',
  '\\..',
  '..\\',
  '%2e%2e',
  '%252e%252e',
  '..%2f..',
  '..%5c..',
  // Look-alikes of a dot and of a slash, and the fullwidth forms NFKC would fold into them.
  '\u2024\u2024',
  '\u2025',
  '\uFF0E\uFF0E',
  '\u2215..',
  '\uFF0F..',
  // The same letter in NFC and NFD.
  '\u00e9',
  'e\u0301',
  'a\0b',
  '\0',
  'x'.repeat(300),
  'caf\u00e9'.repeat(80),
];

/**
 * A path of one to six segments from `names` (what exists in the tree) and the climbing pool,
 * joined with `/` (sometimes doubled), with or without a leading and a trailing slash.
 */
export function hostilePath(names: readonly string[]): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...names) },
    { weight: 3, arbitrary: fc.constantFrom(...CLIMBING_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  return fc
    .tuple(
      fc.array(segment, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('/', '//', ''),
      fc.constantFrom('/', '//'),
      fc.boolean(),
    )
    .map(
      ([segments, lead, join, trailing]) => `${lead}${segments.join(join)}${trailing ? '/' : ''}`,
    );
}

/** Percent-encodes every byte of a string (dots and slashes included). */
function encodeEveryByte(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`)
    .join('');
}

/** How one segment is written in a URL. */
const ENCODERS: Array<(segment: string) => string> = [
  // As is where HTTP allows it (printable ASCII without ? and #), else as encodeURIComponent.
  (segment) =>
    /^[\x21-\x7e]*$/.test(segment) && !/[?#]/.test(segment) ? segment : encodeURIComponent(segment),
  encodeURIComponent,
  // Encoded twice: a server that decodes twice climbs.
  (segment) => encodeURIComponent(encodeURIComponent(segment)),
  encodeEveryByte,
];

/**
 * A hostile path as it appears in a request target: the segments of hostilePath, each encoded one
 * of the ways above, with the slashes between them sometimes encoded too (`%2F`).
 */
export function hostileUrlPath(names: readonly string[]): fc.Arbitrary<string> {
  return hostilePath(names).chain((decoded) => {
    const parts = decoded.split('/');
    return fc
      .tuple(
        fc.array(fc.integer({ min: 0, max: ENCODERS.length - 1 }), {
          minLength: parts.length,
          maxLength: parts.length,
        }),
        fc.constantFrom('/', '/', '/', '%2F', '%2f', '%252F'),
      )
      .map(([encoders, slash]) => {
        const encoded = parts.map((part, index) => ENCODERS[encoders[index]!]!(part));
        // The first separator stays a real slash so the route still matches.
        return `/${encoded.join(slash).replace(/^\/+/, '')}`;
      });
  });
}

/** Runs per property: CABINET_FUZZ_RUNS overrides the default for a longer local session. */
export function fuzzRuns(defaultRuns: number): number {
  const override = Number(process.env.CABINET_FUZZ_RUNS);
  return Number.isInteger(override) && override > 0 ? override : defaultRuns;
}
