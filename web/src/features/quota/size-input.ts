/**
 * Sizes as admins type them in the quota field: a number and an optional unit, "10 GB", "1.5T",
 * "500 MiB", "2048". Units are binary (1 GB = 1 GiB = 1024³ bytes), as the app shows sizes
 * everywhere (format/file-size.ts), so a quota typed as "10 GB" reads back as "10 GiB".
 */
const UNIT_POWERS: Record<string, number> = { '': 0, b: 0, k: 1, m: 2, g: 3, t: 4, p: 5 };

/** Bytes of a typed size; 0 for an empty field (no quota); undefined when it is not a size. */
export function parseSize(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 0;
  const match =
    /^(\d+(?:\.\d+)?)\s*([kmgtp]?)(?:i?b)?$/i.exec(trimmed) ?? /^(\d+)\s*(b)$/i.exec(trimmed);
  if (!match) return undefined;
  const power = UNIT_POWERS[match[2]!.toLowerCase()];
  if (power === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * 1024 ** power);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** A quota as the field shows it: the largest unit that keeps it exact to 2 decimals; "" for 0. */
export function sizeInputText(bytes: number): string {
  if (bytes <= 0) return '';
  let unit = UNITS.length - 1;
  while (unit > 0 && bytes / 1024 ** unit < 1) unit -= 1;
  for (; unit > 0; unit -= 1) {
    const value = bytes / 1024 ** unit;
    if (Math.round(value * 100) / 100 === value) return `${value} ${UNITS[unit]}`;
  }
  return `${bytes} B`;
}
