import { useState } from 'react';
import { ApplyToAll } from '../../components/ApplyToAll.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import type { ConflictAnswer } from './ask-conflict.ts';
import './operations.css';

/**
 * The clash question of a move or copy, before it starts: Keep both (focused: it loses nothing),
 * Skip, or Replace, painted as the destructive action it is, the same choices the Jobs panel
 * offers should a clash arise mid-way. With several clashes "Apply to all" answers them all at
 * once; otherwise the answer is for the named one and the Jobs panel asks about the others. A
 * user who may not replace is not offered Replace (the server would refuse it).
 */
export function ConflictDialog(props: {
  firstName: string;
  clashCount: number;
  offersReplace: boolean;
  onAnswer: (answer: ConflictAnswer | null) => void;
}) {
  const { t } = useTranslation();
  const { firstName, clashCount, offersReplace, onAnswer } = props;
  const [applyToAll, setApplyToAll] = useState(false);
  const focusRef = useInitialFocus<HTMLButtonElement>();
  const answer = (choice: ConflictAnswer['choice']) =>
    onAnswer({ choice, applyToAll: clashCount === 1 || applyToAll });
  const name = isolateName(firstName);
  return (
    <Dialog
      title={t('ops.replaceRenameTitle')}
      onClose={() => onAnswer(null)}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={() => onAnswer(null)}>
            {t('buttons.cancel')}
          </button>
          <button
            ref={focusRef}
            type="button"
            className="button button--secondary"
            onClick={() => answer('keep-both')}
          >
            {t('jobs.keepBoth')}
          </button>
          <button type="button" className="button button--secondary" onClick={() => answer('skip')}>
            {t('jobs.skip')}
          </button>
          {offersReplace && (
            <button
              type="button"
              className="button button--danger"
              onClick={() => answer('replace')}
            >
              {t('jobs.replace')}
            </button>
          )}
        </>
      }
    >
      <p className="operation__conflict">
        {clashCount === 1
          ? t('ops.conflictOne', { name })
          : t('ops.conflictMany', { name, n: clashCount })}
      </p>
      {clashCount > 1 && (
        <ApplyToAll
          className="operation__apply-all"
          checked={applyToAll}
          onChange={setApplyToAll}
        />
      )}
    </Dialog>
  );
}
