import { fetchResource } from '../../api/resources/resource-query.ts';
import { askReplace } from './ask-replace.ts';
import { enqueueUploads } from './upload-queue.ts';
import {
  readDroppedItems,
  sourcesFromDroppedItems,
  sourcesFromFiles,
  topLevelName,
  type UploadSource,
} from './upload-sources.ts';

/** Queues files (from an <input type=file> or a drop) for upload into a folder (scope path). */
export function uploadFiles(files: File[], folder: string): Promise<void> {
  return queueSources(sourcesFromFiles(files), folder);
}

/**
 * Queues what was dropped from the desktop (files and folders) for upload into a folder. Must be
 * called synchronously inside the drop handler: it reads the DataTransfer before awaiting.
 */
export function uploadDataTransfer(data: DataTransfer, folder: string): Promise<void> {
  const items = readDroppedItems(data);
  return sourcesFromDroppedItems(items).then((sources) => queueSources(sources, folder));
}

/**
 * Lists the target first: when a top-level name exists there (for a folder upload only the
 * folder's own name counts), the user is asked whether to replace; "cancel" uploads nothing.
 */
async function queueSources(sources: UploadSource[], folder: string): Promise<void> {
  if (sources.length === 0) return;
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  // Without a listing the server still refuses a clash (409), and the queue asks then.
  const listing = await fetchResource(base).catch(() => null);
  const existing = new Set(listing?.items?.map((item) => item.name));
  const clashes = sources.some((source) => existing.has(topLevelName(source)));
  if (clashes && !(await askReplace())) return;
  enqueueUploads(
    sources.map((source) => ({
      path: `${base}${source.relativePath}`,
      label: source.relativePath,
      file: source.file,
      override: clashes,
    })),
  );
}
