import type * as z from 'zod/mini';

/**
 * Reads a JSON text the server sent (an XMLHttpRequest reply, one NDJSON line) with its protocol
 * schema: the value, or undefined when the text is not JSON or does not fit.
 */
export function parseReply<Schema extends z.ZodMiniType>(
  schema: Schema,
  text: string,
): z.infer<Schema> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
