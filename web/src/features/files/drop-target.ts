import type { DragEvent } from 'react';
import { loadTransfers, loadUploads } from '../../app/on-demand.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import { readDroppedItems } from '../upload/index.ts';
import { draggedEntries, dropKind } from './drag-items.ts';
import { isSamePath } from '../../paths/file-paths.ts';

/** What a drop zone accepts: entries moved in (rename permission) and desktop files (create). */
export interface DropRules {
  canMove: boolean;
  canUpload: boolean;
}

/** The one element showing the drop highlight: moving onto a folder row takes it off the listing. */
let highlighted: HTMLElement | null = null;

export function highlight(element: HTMLElement | null): void {
  if (highlighted === element) return;
  if (highlighted) delete highlighted.dataset.dropActive;
  highlighted = element;
  if (element) element.dataset.dropActive = 'true';
}

function acceptedKind(event: DragEvent, folder: string, rules: DropRules) {
  const kind = dropKind(event.dataTransfer);
  if (kind === 'files') return rules.canUpload ? kind : null;
  if (kind !== 'entries' || !rules.canMove) return null;
  // A folder cannot be moved into itself.
  return draggedEntries().some((entry) => isSamePath(entry.path, folder)) ? null : kind;
}

export function reportFailure(error: unknown): void {
  notifyFailure(error);
}

/**
 * Drag-and-drop handlers of a folder (a folder row, or the listing for the folder on screen):
 * entries dragged from the listing move into it, files from the desktop upload into it.
 */
export function dropTargetHandlers(folder: string, rules: DropRules) {
  return {
    onDragOver(event: DragEvent<HTMLElement>) {
      const kind = acceptedKind(event, folder, rules);
      if (!kind) return;
      event.preventDefault();
      event.stopPropagation();
      event.dataTransfer.dropEffect = kind === 'entries' ? 'move' : 'copy';
      highlight(event.currentTarget);
    },
    onDragLeave(event: DragEvent<HTMLElement>) {
      const next = event.relatedTarget;
      if (next instanceof Node && event.currentTarget.contains(next)) return;
      if (highlighted === event.currentTarget) highlight(null);
    },
    onDrop(event: DragEvent<HTMLElement>) {
      highlight(null);
      const kind = acceptedKind(event, folder, rules);
      if (!kind) return;
      event.preventDefault();
      event.stopPropagation();
      if (kind === 'entries') {
        const items = draggedEntries().map((entry) => ({ from: entry.path, name: entry.name }));
        // The folder on screen stays; it reloads without the moved entries.
        loadTransfers()
          .then((transfers) =>
            transfers.transferItems('move', items, folder, { followUp: 'reload' }),
          )
          .catch(reportFailure);
      } else {
        // Read synchronously: the DataTransfer is emptied once this handler returns.
        const dropped = readDroppedItems(event.dataTransfer);
        loadUploads()
          .then((uploads) => uploads.uploadDroppedItems(dropped, folder))
          .catch(reportFailure);
      }
    },
  };
}

/** Clears a highlight left behind when a drag ends outside any zone. */
export function clearDropHighlight(): void {
  highlight(null);
}
