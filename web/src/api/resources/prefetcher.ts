/** URLs remembered as fetched, so a scroll back does not ask for them again; bounded. */
const MAX_REMEMBERED = 2000;

/**
 * Prefetches of pictures the user is likely to look at next (the viewer's neighbours, the
 * mosaic's next tiles), made with `?prefetch=1` so the server makes them after every picture on
 * screen (docs/previews.md, "Cache"). At most `limit` run at once; `want` replaces the wanted set
 * and cancels what is no longer in it, `cancel` stops everything (the screen is left). The
 * responses are read and dropped: the server's preview cache then answers the real request at
 * once. One per component (a ref), never shared module state.
 */
export class Prefetcher {
  private readonly running = new Map<string, AbortController>();
  private queue: string[] = [];
  private readonly fetched = new Set<string>();

  constructor(private readonly limit: number) {}

  /**
   * Fetches `urls` in order (those not fetched yet), cancels running ones not among them or
   * `keep` (a prefetch that became the file on screen is left to finish: the server shares it).
   */
  want(urls: readonly string[], keep: readonly string[] = []): void {
    const wanted = new Set([...urls, ...keep]);
    for (const [url, controller] of this.running) {
      if (!wanted.has(url)) {
        controller.abort();
        this.running.delete(url);
      }
    }
    this.queue = urls.filter((url) => !this.running.has(url) && !this.fetched.has(url));
    this.pump();
  }

  /** Stops every prefetch (the screen is left). */
  cancel(): void {
    this.queue = [];
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }

  /** Prefetches running now (tests). */
  get active(): number {
    return this.running.size;
  }

  private pump(): void {
    while (this.running.size < this.limit && this.queue.length > 0) {
      const url = this.queue.shift()!;
      const controller = new AbortController();
      this.running.set(url, controller);
      // Low fetch priority: the browser sends what is on screen first (Chromium holds low-priority
      // requests back while more urgent ones load).
      void fetch(url, { signal: controller.signal, credentials: 'same-origin', priority: 'low' })
        .then(async (response) => {
          await response.arrayBuffer();
          if (!response.ok) return;
          if (this.fetched.size >= MAX_REMEMBERED) this.fetched.clear();
          this.fetched.add(url);
        })
        .catch(() => undefined)
        .finally(() => {
          if (this.running.get(url) !== controller) return;
          this.running.delete(url);
          this.pump();
        });
    }
  }
}

/** A preview URL marked as a prefetch. */
export function asPrefetch(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}prefetch=1`;
}
