import type { SiteBuild } from '@cabinet/protocol';
import type { NamedLock } from '../../coordination/index.ts';

/** A site's builds on this instance: the one running (or none) and the one waiting to start. */
interface Queue {
  /** Settles when the last build started here has ended. */
  tail: Promise<unknown>;
  /** The build every request arriving now joins; undefined once it has started. */
  waiting: Promise<SiteBuild> | undefined;
}

/**
 * One build per site at a time, across instances, with requests coalesced (docs/sites.md,
 * "Builds"). A request arriving while a build of the site runs joins the one build that follows it
 * (every joiner gets that build's result: the files it read were written before it started), so
 * fifteen requests at once cost at most two builds and none is refused. Across instances the
 * runtime's named lock `site-build:<name>` (in memory, or a lease in the database) lets one build
 * run at a time; a build that lost its lease (`signal`) does not swap its output in.
 */
export class BuildQueue {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly lock: NamedLock) {}

  /** Runs `build` for the site once no other build of it runs, or joins the one about to start. */
  request(site: string, build: (signal: AbortSignal) => Promise<SiteBuild>): Promise<SiteBuild> {
    let queue = this.queues.get(site);
    if (queue?.waiting) return queue.waiting;
    if (!queue) {
      queue = { tail: Promise.resolve(), waiting: undefined };
      this.queues.set(site, queue);
    }
    const current = queue;
    const next = current.tail.then(() => {
      // From here on, a new request waits for this build to end and starts another.
      current.waiting = undefined;
      return this.lock.run(`site-build:${site}`, build);
    });
    current.waiting = next;
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    current.tail = tail;
    void tail.then(() => {
      // The last build of an idle site forgets its queue: idle sites cost nothing.
      if (current.tail === tail && this.queues.get(site) === current) this.queues.delete(site);
    });
    return next;
  }

  /** Sites with a build running or waiting here (tests check that idle sites are forgotten). */
  get size(): number {
    return this.queues.size;
  }
}
