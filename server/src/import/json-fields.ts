/**
 * Typed reads of fields in JSON that filebrowser wrote. Its records come from many versions (and
 * may have been edited by hand), so every field is checked for its type and missing or mistyped
 * ones fall back instead of throwing.
 */
export type JsonObject = Record<string, unknown>;

/** `value` when it is a JSON object, else undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** A string field, or `fallback`. */
export function text(object: JsonObject, key: string, fallback = ''): string {
  const value = object[key];
  return typeof value === 'string' ? value : fallback;
}

/** A boolean field, or `fallback`. */
export function flag(object: JsonObject, key: string, fallback = false): boolean {
  const value = object[key];
  return typeof value === 'boolean' ? value : fallback;
}

/** A non-negative whole number field, or undefined. */
export function count(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The strings of an array field ([] when missing; other items dropped). */
export function strings(object: JsonObject, key: string): string[] {
  const value = object[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Whether the field is present (even as null). */
export function has(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
