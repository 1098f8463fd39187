/**
 * Case folding that never changes a name's UTF-8 length, so the folded copy of the name blob keeps
 * the same byte offsets as the original and one offset table serves both. ASCII letters and every
 * character whose lower case encodes to as many bytes fold; the rare others (`İ`, whose lower case
 * is longer) stay as they are, on both the name side and the query side, so matching stays
 * consistent.
 */
export function foldName(name: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return name.toLowerCase();
  let folded = '';
  for (const char of name) {
    const lower = char.toLowerCase();
    folded += lower !== char && Buffer.byteLength(lower) === Buffer.byteLength(char) ? lower : char;
  }
  return folded;
}
