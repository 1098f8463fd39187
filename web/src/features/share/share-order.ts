import type { Share } from '@cabinet/protocol';

/** Links as the share dialog lists them: permanent ones first, the rest by expiry. */
export function shareOrder(links: readonly Share[]): Share[] {
  return [...links].sort((a, b) => {
    if (a.expire === 0 || b.expire === 0)
      return (a.expire === 0 ? 0 : 1) - (b.expire === 0 ? 0 : 1);
    return a.expire - b.expire;
  });
}
