import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { baseNameLength, nameProblem } from '../../paths/entry-name.ts';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { renameEntry } from './rename-entry.ts';
import { useDialogTargets } from './use-dialog-targets.ts';
import './operations.css';

/**
 * Rename: the name comes pre-filled with the part before the
 * extension selected, is trimmed, and must not be empty or hold a slash. The rename itself
 * (with its clash prompt) goes on after the dialog closes.
 */
export function RenameDialog({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const [item] = useDialogTargets(dialog);
  const [name, setName] = useState(item?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const input = inputRef.current;
    if (!input || !item) return;
    input.focus();
    input.setSelectionRange(0, baseNameLength(item.name, item.isDir));
  }, [item]);

  if (!item || item.path === '/') {
    return <NothingToActOn title={t('ops.renameTitle')} onClose={onClose} />;
  }

  const handleSubmit = () => {
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setProblem(t(invalid));
      return;
    }
    onClose();
    if (trimmed !== item.name) void renameEntry(item, trimmed, dialog.onDone);
  };

  return (
    <Dialog
      title={t('ops.renameTitle')}
      onClose={onClose}
      onSubmit={handleSubmit}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button">
            {t('ops.rename')}
          </button>
        </>
      }
    >
      <label className="field">
        <span className="field__label">{t('ops.renameLabel', { name: item.name })}</span>
        <input
          ref={inputRef}
          className="input"
          value={name}
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'rename-problem' : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
        />
      </label>
      {problem && (
        <p id="rename-problem" className="field__error" role="alert">
          {problem}
        </p>
      )}
    </Dialog>
  );
}
