/**
 * Arrow keys as the eye reads them: in a right-to-left page the item after the current one sits
 * on its left, so ArrowLeft means "next" and ArrowRight "previous". Returns the key as it reads
 * in left-to-right order (ArrowRight = forward), for code written that way.
 */
export function logicalArrowKey(key: string): string {
  if (document.documentElement.dir !== 'rtl') return key;
  if (key === 'ArrowLeft') return 'ArrowRight';
  if (key === 'ArrowRight') return 'ArrowLeft';
  return key;
}
