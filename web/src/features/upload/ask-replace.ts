import i18next from 'i18next';
import { askReplace as askClash } from '../operations/on-demand.ts';

let questions: Promise<unknown> = Promise.resolve();

/**
 * Asks through the replace prompt (Replace or Cancel) whether existing items may be replaced;
 * resolves true for Replace. Several uploads can clash at once, so questions wait for each other:
 * opening a second prompt would close the first, which counts as Cancel.
 */
export function askReplace(): Promise<boolean> {
  const asked = questions.then(async () => {
    const answer = await askClash('replace', i18next.t('upload.replaceMessage'));
    return answer === 'replace';
  });
  questions = asked;
  return asked;
}
