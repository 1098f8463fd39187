/**
 * One CSV cell as RFC 4180 writes it, made safe to open in a spreadsheet: a value a spreadsheet
 * would read as a formula (starting with = + - @, or a tab or carriage return before one) gets a
 * leading apostrophe, so a username or path chosen by a user never runs as a formula on the
 * administrator's machine (OWASP "CSV injection").
 */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One CSV record with its CRLF line end (RFC 4180). */
export function csvRow(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
