import { ARCHIVE_FORMATS, type ArchiveFormat } from '@cabinet/protocol';
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { isSingleFile, startDownload } from './start-download.ts';
import { useDialogTargets } from './use-dialog-targets.ts';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import './operations.css';

const FORMATS = Object.keys(ARCHIVE_FORMATS) as ArchiveFormat[];

// Dialogs whose single file already went to the browser: effects run twice in development
// (StrictMode), and one request must give one download.
const downloaded = new WeakSet<OpenDialog>();

/**
 * Download: one file goes straight to the browser without asking; a folder
 * or several entries ask for the archive format, offering every format the server makes.
 */
export function DownloadDialog({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const targets = useDialogTargets(dialog);
  const firstRef = useInitialFocus<HTMLButtonElement>();
  const direct = isSingleFile(targets);

  useEffect(() => {
    if (!direct || downloaded.has(dialog)) return;
    downloaded.add(dialog);
    startDownload(targets);
    onClose();
  }, [direct, dialog, targets, onClose]);

  if (direct) return null;
  if (targets.length === 0)
    return <NothingToActOn title={t('ops.downloadTitle')} onClose={onClose} />;

  const handleFormat = (format: ArchiveFormat) => {
    startDownload(targets, format);
    onClose();
  };

  return (
    <Dialog
      title={t('ops.downloadTitle')}
      onClose={onClose}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          {t('buttons.cancel')}
        </button>
      }
    >
      <p id="download-formats">{t('ops.downloadMessage')}</p>
      <div className="format-list" role="group" aria-labelledby="download-formats">
        {FORMATS.map((format, index) => (
          <button
            key={format}
            ref={index === 0 ? firstRef : undefined}
            type="button"
            className="button button--secondary format-list__button"
            onClick={() => handleFormat(format)}
          >
            {ARCHIVE_FORMATS[format].slice(1)}
          </button>
        ))}
      </div>
    </Dialog>
  );
}
