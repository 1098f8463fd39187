import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import type { ReplaceAnswer } from './ask-replace.ts';
import './operations.css';

/**
 * The clash prompts: "replace" (uploads) offers Replace or Cancel, "replace-rename" (rename, move,
 * copy, paste) also Rename, which keeps both entries. Focus starts on the action that loses
 * nothing when there is one (Rename), else on Replace, so Enter confirms the prompt.
 */
export function ReplaceDialog(props: {
  offersRename: boolean;
  message: string | undefined;
  onAnswer: (answer: ReplaceAnswer) => void;
}) {
  const { t } = useTranslation();
  const { offersRename, onAnswer } = props;
  const focusRef = useInitialFocus<HTMLButtonElement>();
  return (
    <Dialog
      title={t(offersRename ? 'ops.replaceRenameTitle' : 'ops.replaceTitle')}
      onClose={() => onAnswer('cancel')}
      actions={
        <>
          <button
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
          <button
            ref={offersRename ? undefined : focusRef}
            type="button"
            className="button button--danger"
            onClick={() => onAnswer('replace')}
          >
            {t('ops.replace')}
          </button>
        </>
      }
    >
      <p>{props.message || t('ops.replaceMessage')}</p>
    </Dialog>
  );
}
