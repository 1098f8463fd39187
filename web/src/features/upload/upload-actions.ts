import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { fetchResource } from '../../api/resources/resource-query.ts';
import { queryClient } from '../../app/query-client.ts';
import { askReplace } from './ask-replace.ts';
import { enqueueUploads, onUploadsFinished } from './upload-queue.ts';
import {
  sourcesFromDroppedItems,
  sourcesFromFiles,
  topLevelName,
  type DroppedItem,
  type UploadSource,
} from './upload-sources.ts';

// Every upload starts here, so this is where the listings learn that a run ended.
onUploadsFinished(() => void queryClient.invalidateQueries({ queryKey: resourceKeys.all }));

/** Queues files (from an <input type=file> or a drop) for upload into a folder (scope path). */
export function uploadFiles(files: File[], folder: string): Promise<void> {
  return queueSources(sourcesFromFiles(files), folder);
}

/**
 * Queues what was dropped from the desktop (files and folders) for upload into a folder: the
 * items readDroppedItems took from the drop event.
 */
export function uploadDroppedItems(items: DroppedItem[], folder: string): Promise<void> {
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
  const clashing = new Set(sources.map(topLevelName).filter((name) => existing.has(name)));
  const clashes = clashing.size > 0;
  if (clashes && !(await askReplace([...clashing]))) return;
  enqueueUploads(
    sources.map((source) => ({
      path: `${base}${source.relativePath}`,
      label: source.relativePath,
      file: source.file,
      override: clashes,
    })),
  );
}
