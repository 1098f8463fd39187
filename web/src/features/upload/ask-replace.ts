import i18next from 'i18next';
import { hasPerm } from '../../auth/permissions.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { askReplace as askClash } from '../operations/on-demand.ts';

let questions: Promise<unknown> = Promise.resolve();

/**
 * Asks through the replace prompt (Replace or Cancel) whether the existing items `names` may be
 * replaced; resolves true for Replace. One clash is named in the question. Replacing needs the
 * modify permission (the server refuses it otherwise), so without it the prompt only says so and
 * offers Cancel. Several uploads can clash at once, so questions wait for each other: opening a
 * second prompt would close the first, which counts as Cancel.
 */
export function askReplace(names: string[]): Promise<boolean> {
  const asked = questions.then(async () => {
    const mayReplace = hasPerm(useSessionStore.getState().user, 'modify');
    const [only] = names;
    const message =
      names.length === 1 && only !== undefined
        ? i18next.t(mayReplace ? 'upload.replaceOne' : 'upload.cannotReplaceOne', {
            name: isolateName(only),
          })
        : i18next.t(mayReplace ? 'upload.replaceMessage' : 'upload.cannotReplaceMany');
    const answer = await askClash('replace', message, mayReplace);
    return answer === 'replace';
  });
  questions = asked;
  return asked;
}
