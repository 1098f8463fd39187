import { useDialogStore } from '../../stores/dialog-store.ts';

/** The user's answer to a clash prompt. */
export type ReplaceAnswer = 'replace' | 'rename' | 'cancel';

/**
 * Asks what to do about a name clash and resolves with the answer: "replace" offers Replace and
 * Cancel, "replace-rename" also Rename; without `offersReplace` Replace is left out. A prompt closed any other way (Esc, a route change,
 * another dialog taking its place) counts as Cancel, so the waiting operation always ends.
 */
export function askReplace(
  kind: 'replace' | 'replace-rename',
  message?: string,
  offersReplace = true,
): Promise<ReplaceAnswer> {
  return new Promise((resolve) => {
    let unsubscribe = () => {};
    let settled = false;
    const finish = (answer: ReplaceAnswer) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      resolve(answer);
    };
    const store = useDialogStore.getState();
    store.open(kind, { message, offersReplace, onAnswer: finish });
    const prompt = useDialogStore.getState().dialog;
    unsubscribe = useDialogStore.subscribe((state) => {
      if (state.dialog !== prompt) finish('cancel');
    });
  });
}
