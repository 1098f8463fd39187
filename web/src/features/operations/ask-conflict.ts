import { useDialogStore } from '../../stores/dialog-store.ts';

/** The answer to a move's or copy's clash question: what to do, and whether for every clash. */
export interface ConflictAnswer {
  choice: 'replace' | 'skip' | 'keep-both';
  applyToAll: boolean;
}

/**
 * Asks what to do about the clashes of a move or copy (the first one named) and resolves with the
 * answer, or null for Cancel. A prompt closed any other way (Esc, a route change, another dialog
 * taking its place) counts as Cancel, so the waiting transfer always ends.
 */
export function askConflict(
  firstName: string,
  clashCount: number,
  offersReplace = true,
): Promise<ConflictAnswer | null> {
  return new Promise((resolve) => {
    let unsubscribe = () => {};
    let settled = false;
    const finish = (answer: ConflictAnswer | null) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      resolve(answer);
    };
    const store = useDialogStore.getState();
    store.open('conflict', {
      conflict: { firstName, clashCount },
      offersReplace,
      onConflictAnswer: finish,
    });
    const prompt = useDialogStore.getState().dialog;
    unsubscribe = useDialogStore.subscribe((state) => {
      if (state.dialog !== prompt) finish(null);
    });
  });
}
