import { expect } from 'vitest';

/**
 * Asserts two byte strings are equal. `toEqual` compares buffers element by element through its
 * generic deep equality, which takes tens of seconds for a few MiB on a busy machine; this is one
 * memcmp, with the length and the first differing offset in the message when it fails.
 */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length, 'byte length').toBe(expected.length);
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(b)) return;
  let at = 0;
  while (a[at] === b[at]) at += 1;
  expect.fail(`bytes differ first at offset ${at}`);
}
