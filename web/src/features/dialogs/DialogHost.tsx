import { Suspense, useCallback } from 'react';
import { loadDialogs } from '../../app/on-demand.ts';
import { lazyComponent } from '../../app/load-chunk.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';

const DialogView = lazyComponent(loadDialogs, (m) => m.DialogView);

/**
 * Renders the one open dialog (one at a time). The dialogs themselves are a
 * chunk of their own (DialogView.tsx), fetched when the page is idle or at the first dialog.
 */
export function DialogHost() {
  const dialog = useDialogStore((s) => s.dialog);

  // Closes this request's dialog only: an operation finishing late must not close another one.
  const close = useCallback(() => {
    const store = useDialogStore.getState();
    if (store.dialog === dialog) store.close();
  }, [dialog]);

  if (!dialog) return null;
  return (
    <Suspense fallback={null}>
      <DialogView dialog={dialog} onClose={close} />
    </Suspense>
  );
}
