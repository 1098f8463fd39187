import { FilePlus, FolderPlus, Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
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
  const [isOpen, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [isOpen]);

  const choose = (input: HTMLInputElement | null) => {
    setOpen(false);
    buttonRef.current?.focus();
    input?.click();
  };

  // Menu keys of the WAI-ARIA menu button pattern: arrows move, Esc closes, Tab leaves.
  const handleMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [],
    );
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      items[event.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div className="upload-button">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={t('upload.upload')}
        title={t('upload.upload')}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={() => setOpen((open) => !open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !isOpen) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Upload size={20} aria-hidden="true" />
      </button>
      {isOpen && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={t('upload.upload')}
          className="upload-menu"
          onKeyDown={handleMenuKey}
        >
          <button
            type="button"
            role="menuitem"
            className="upload-menu__item"
            tabIndex={-1}
            onClick={() => choose(filesInput.current)}
          >
            <FilePlus size={18} aria-hidden="true" />
            {t('upload.files')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="upload-menu__item"
            tabIndex={-1}
            onClick={() => choose(folderInput.current)}
          >
            <FolderPlus size={18} aria-hidden="true" />
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
