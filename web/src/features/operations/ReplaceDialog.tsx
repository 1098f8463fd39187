import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import type { ReplaceAnswer } from './ask-replace.ts';
import './operations.css';

/**
 * The clash prompts: "replace" (uploads) offers Replace or Cancel, "replace-rename" (rename, move,
 * copy, paste) also Rename, which keeps both entries. Focus starts on the action that loses
 * nothing when there is one (Rename), else on Replace, so Enter confirms the prompt. A user who
 * may not replace is not offered Replace (the server would refuse it): only Cancel, focused.
 */
export function ReplaceDialog(props: {
  offersRename: boolean;
  offersReplace: boolean;
  message: string | undefined;
  onAnswer: (answer: ReplaceAnswer) => void;
}) {
  const { t } = useTranslation();
  const { offersRename, offersReplace, onAnswer } = props;
  const focusRef = useInitialFocus<HTMLButtonElement>();
  return (
    <Dialog
      title={t(offersRename || !offersReplace ? 'ops.replaceRenameTitle' : 'ops.replaceTitle')}
      onClose={() => onAnswer('cancel')}
      actions={
        <>
          <button
            ref={offersRename || offersReplace ? undefined : focusRef}
            type="button"
            className="button button--secondary"
            onClick={() => onAnswer('cancel')}
          >
            {t('buttons.cancel')}
          </button>
          {offersRename && (
            <button
              ref={focusRef}
              type="button"
              className="button button--secondary"
              onClick={() => onAnswer('rename')}
            >
              {t('ops.rename')}
            </button>
          )}
          {offersReplace && (
            <button
              ref={offersRename ? undefined : focusRef}
              type="button"
              className="button button--danger"
              onClick={() => onAnswer('replace')}
            >
              {t('ops.replace')}
            </button>
          )}
        </>
      }
    >
      <p>{props.message || t('ops.replaceMessage')}</p>
    </Dialog>
  );
}
