import type { UploadLease, UploadLeases } from './upload-leases.ts';

interface Holder {
  controller: AbortController;
  released: Promise<void>;
}

/** Upload leases within this process: one holder per upload id, kept in a map. */
export class MemoryUploadLeases implements UploadLeases {
  private readonly holders = new Map<string, Holder>();

  async acquire(id: string): Promise<UploadLease> {
    for (let current = this.holders.get(id); current; current = this.holders.get(id)) {
      current.controller.abort();
      await current.released;
    }
    let resolve!: () => void;
    const holder: Holder = {
      controller: new AbortController(),
      released: new Promise<void>((r) => (resolve = r)),
    };
    this.holders.set(id, holder);
    return {
      signal: holder.controller.signal,
      release: () => {
        if (this.holders.get(id) === holder) this.holders.delete(id);
        resolve();
      },
    };
  }

  isHeld(id: string): Promise<boolean> {
    return Promise.resolve(this.holders.has(id));
  }

  async abortAll(): Promise<void> {
    const all = [...this.holders.values()];
    for (const holder of all) holder.controller.abort();
    await Promise.all(all.map((holder) => holder.released));
  }
}
