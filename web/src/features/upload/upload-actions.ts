// SEAM (owned by the uploads helper; replace this whole file): queueing uploads from anywhere.

/** Queues files (from an <input type=file> or a drop) for upload into a folder (scope path). */
export function uploadFiles(_files: File[], _folder: string): Promise<void> {
  return Promise.reject(new Error('uploads are not built yet'));
}

/**
 * Queues what was dropped from the desktop (files and folders) for upload into a folder. Must be
 * called synchronously inside the drop handler: it reads the DataTransfer before awaiting.
 */
export function uploadDataTransfer(_data: DataTransfer, _folder: string): Promise<void> {
  return Promise.reject(new Error('uploads are not built yet'));
}
