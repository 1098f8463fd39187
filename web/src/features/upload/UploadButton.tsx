import { FilePlus, FolderPlus, Upload } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useMenuButton } from '../../hooks/use-menu-button.ts';
import '../../components/menu.css';
import { loadUploads } from '../../app/on-demand.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import './upload.css';

/** Hands the chosen files to the queue and empties the input, so the same choice works twice. */
function handleChosen(event: ChangeEvent<HTMLInputElement>, folder: string) {
  const input = event.currentTarget;
  const files = Array.from(input.files ?? []);
  input.value = '';
  loadUploads()
    .then((uploads) => uploads.uploadFiles(files, folder))
    .catch(notifyFailure);
}

/**
 * The header's Upload action for a folder: a menu button offering "Upload files" and "Upload
 * folder", each opening the browser's file chooser (a hidden input). The caller shows it only to
 * users with the create permission.
 */
export function UploadButton({ folder }: { folder: string }) {
  const { t } = useTranslation();
  const { isOpen, close, buttonProps, menuProps } = useMenuButton();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const choose = (input: HTMLInputElement | null) => {
    close();
    input?.click();
  };

  return (
    <div className="menu">
      <button
        {...buttonProps}
        type="button"
        className="icon-button"
        aria-label={t('upload.upload')}
        title={t('upload.upload')}
      >
        <Upload size={20} aria-hidden="true" />
      </button>
      {isOpen && (
        <div {...menuProps} className="menu__list" aria-label={t('upload.upload')}>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            tabIndex={-1}
            onClick={() => choose(filesInput.current)}
          >
            <FilePlus size={20} aria-hidden="true" />
            {t('upload.files')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            tabIndex={-1}
            onClick={() => choose(folderInput.current)}
          >
            <FolderPlus size={20} aria-hidden="true" />
            {t('upload.folder')}
          </button>
        </div>
      )}
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-label={t('upload.files')}
        onChange={(event) => handleChosen(event, folder)}
      />
      <input
        ref={(input) => {
          folderInput.current = input;
          // Not a React prop: set the property so the chooser picks a whole folder.
          if (input) input.webkitdirectory = true;
        }}
        type="file"
        hidden
        aria-label={t('upload.folder')}
        onChange={(event) => handleChosen(event, folder)}
      />
    </div>
  );
}
