import { useEffect, type RefObject } from 'react';
import { loadUploads } from '../../app/on-demand.ts';
import { readDroppedItems } from '../upload/index.ts';
import { dropKind } from './drag-items.ts';
import { highlight, reportFailure } from './drop-target.ts';

/** A desktop-files drag over the page, not over an open dialog (which has its own business). */
function isScreenFileDrag(event: DragEvent): event is DragEvent & { dataTransfer: DataTransfer } {
  if (!event.dataTransfer || dropKind(event.dataTransfer) !== 'files') return false;
  return !(event.target instanceof Element && event.target.closest('dialog, [role="dialog"]'));
}

/**
 * Desktop files dropped anywhere on the files screen (the header, the breadcrumbs, the empty area
 * under a short list, the margins) upload into the folder on screen, and `target` (the listing)
 * shows the drop highlight while they are dragged there. Folder rows and the listing handle
 * their own drops first and stop them, so this hears only what no zone took.
 */
export function useScreenDrop(
  folder: string,
  canUpload: boolean,
  target: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!canUpload) return;
    const onDragOver = (event: DragEvent) => {
      if (!isScreenFileDrag(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      highlight(target.current);
    };
    const onDragLeave = (event: DragEvent) => {
      // Out of the window: nothing is dragged over the screen any more.
      if (event.relatedTarget === null) highlight(null);
    };
    const onDrop = (event: DragEvent) => {
      highlight(null);
      if (!isScreenFileDrag(event)) return;
      event.preventDefault();
      // Read synchronously: the DataTransfer is emptied once this handler returns.
      const dropped = readDroppedItems(event.dataTransfer);
      loadUploads()
        .then((uploads) => uploads.uploadDroppedItems(dropped, folder))
        .catch(reportFailure);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('drop', onDrop);
      highlight(null);
    };
  }, [folder, canUpload, target]);
}
