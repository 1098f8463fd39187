/**
 * The `type` values of listed items, in a fixed order: listings keep each child's type as its
 * position here (one byte), in fresh listings, cached folders and the compact form alike.
 */
export const LISTED_TYPES = [
  '',
  'invalid_link',
  'video',
  'audio',
  'image',
  'pdf',
  'text',
  'blob',
] as const;

/** A type's position in LISTED_TYPES. */
export const typeCode = new Map<string, number>(LISTED_TYPES.map((type, code) => [type, code]));
