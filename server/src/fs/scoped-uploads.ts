import type { Stats } from 'node:fs';
import { errors } from '../errors.ts';
import type { FileRoot } from './file-root.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';
import type { AppendOutcome, AppendRequest, UploadStaging } from './upload-staging.ts';

/**
 * Where a resumable upload lands, as its session record keeps it. Both fields are issued here and
 * are opaque to services: they store them, compare `target` for equality (one upload per file) and
 * hand the place back; only the file-system layer reads them as paths.
 */
export interface UploadPlace {
  /** Identity of the file the upload lands on. */
  target: string;
  /** The staging file that holds the bytes received so far. */
  staging: string;
}

/**
 * Resumable uploads behind the same door as every other write: the service names the target by its
 * user path (a Resolved) and the upload by its id; the staging file beside the target, its appends
 * and the final rename happen here (see upload-staging.ts for the on-disk guarantees).
 */
export class ScopedUploads {
  constructor(private readonly scope: ScopeResolver) {}

  /** Removes a staging file by its recorded place, on no user's behalf (the expiry sweeper). */
  static discard(root: FileRoot, place: UploadPlace): Promise<boolean> {
    return root.uploadStaging.discard(place.staging);
  }

  private get staging(): UploadStaging {
    return this.scope.root.uploadStaging;
  }

  /** Identity of the file an upload to `target` would land on (to find an upload in progress). */
  targetOf(target: Resolved): string {
    return target.real;
  }

  /** Bytes that may still be written on the volume where `target` would be created. */
  availableBytes(target: Resolved): Promise<number> {
    return this.staging.availableBytes(target.real);
  }

  /** The place of upload `id` to `target`; nothing is created yet (the record is written first). */
  placeFor(target: Resolved, id: string): UploadPlace {
    return { target: target.real, staging: this.staging.stagingPathFor(target.real, id) };
  }

  /** Creates the empty staging file of a place (its folder must exist). */
  create(place: UploadPlace): Promise<void> {
    return this.staging.create(place.staging);
  }

  /** Bytes received so far, or undefined when the staging file is gone. */
  size(place: UploadPlace): Promise<number | undefined> {
    return this.staging.size(place.staging);
  }

  /** Appends a request body at an offset (see UploadStaging.append). */
  append(place: UploadPlace, request: AppendRequest): Promise<AppendOutcome> {
    return this.staging.append(place.staging, request);
  }

  /**
   * Renames a full staging file over its target. 409 when the user path now resolves elsewhere
   * than where the upload was staged (a folder on the way was moved or relinked).
   */
  async commit(place: UploadPlace, target: Resolved, override: boolean): Promise<Stats> {
    if (target.real !== place.target) throw errors.conflict('the target moved');
    return this.staging.commit(place.staging, place.target, override);
  }

  /** Removes the staging file of an unfinished upload; false when there was nothing to remove. */
  discard(place: UploadPlace): Promise<boolean> {
    return this.staging.discard(place.staging);
  }
}
