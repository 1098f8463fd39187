import type { Sorting } from '@cabinet/protocol';
import type { TestServer } from '../../testing/test-server.ts';
import type { ListingCache } from '../../src/tree/listing/listing-cache.ts';
import { listingJson, readListing, type Listing } from '../../src/services/resources/listing.ts';
import { EntryBudget } from '../../src/services/resources/listing-memory.ts';
import type { UserRecord } from '../../src/store/users.repo.ts';

/**
 * A folder's listing read now as the route would send it (JSON), with or without a cache, and
 * how it was read (`cached`, `fresh` or `streamed`).
 */
export async function readListingBytes(
  server: TestServer,
  user: UserRecord,
  virtual: string,
  sorting: Sorting,
  options: { cache?: ListingCache; stream?: boolean } = {},
): Promise<{ kind: Listing['items']['kind']; bytes: string }> {
  const fs = await server.runtime.services.resources.view(user);
  const dir = await fs.stat(virtual);
  const listing = await readListing(
    fs,
    dir,
    dir.path,
    sorting,
    new EntryBudget(10_000_000, 1_000),
    options.cache,
    { stream: options.stream },
  );
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of listingJson(listing)) chunks.push(chunk);
    return { kind: listing.items.kind, bytes: Buffer.concat(chunks).toString('utf8') };
  } finally {
    listing.done();
  }
}
