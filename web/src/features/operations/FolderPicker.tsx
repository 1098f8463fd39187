import type { ResourceItem } from '@cabinet/protocol';
import { ArrowUp, Folder } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useResourceQuery } from '../../api/resources/resource-query.ts';
import { isSamePath, parentFolder } from '../../paths/file-paths.ts';

export interface FolderPickerProps {
  /** The folder being browsed (scope path ending with "/"). */
  folder: string;
  /** The chosen subfolder, or null when the browsed folder itself is the destination. */
  chosen: string | null;
  onChoose: (path: string | null) => void;
  /** Browses into a folder (or up to the parent). */
  onBrowse: (folder: string) => void;
  /** Folders that cannot be a destination (a folder cannot go into itself). */
  excluded: readonly string[];
  /** Confirms the dialog (Enter). */
  onConfirm: () => void;
}

/**
 * Browses folders to choose a destination: a listbox of the browsed folder's subfolders. Click or
 * the arrow keys choose one, a double-click or → opens it, the Up button, ← or Backspace go to
 * the parent, and Enter confirms.
 */
export function FolderPicker(props: FolderPickerProps) {
  const { folder, chosen, onChoose, onBrowse, excluded, onConfirm } = props;
  const { t } = useTranslation();
  const listId = useId();
  const query = useResourceQuery(folder);
  const folders: ResourceItem[] = (query.data?.items ?? []).filter(
    (item) => item.isDir && !excluded.some((path) => isSamePath(path, item.path)),
  );
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, folders.length - 1);
  const isRoot = folder === '/';

  const browse = (target: string) => {
    setActive(0);
    onChoose(null);
    onBrowse(target.endsWith('/') ? target : `${target}/`);
  };

  const moveTo = (index: number) => {
    const next = folders[index];
    if (!next) return;
    setActive(index);
    onChoose(next.path);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = folders[activeIndex];
    switch (event.key) {
      case 'ArrowDown':
        moveTo(chosen === null ? activeIndex : activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(Math.max(activeIndex - 1, 0));
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(folders.length - 1);
        break;
      case 'ArrowRight':
        if (current) browse(current.path);
        break;
      case 'ArrowLeft':
      case 'Backspace':
        if (!isRoot) browse(parentFolder(folder));
        break;
      case 'Enter':
        onConfirm();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const optionId = (index: number) => `${listId}-${index}`;
  return (
    <div className="folder-picker">
      <div className="folder-picker__bar">
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label={t('ops.goUp')}
          title={t('ops.goUp')}
          disabled={isRoot}
          onClick={() => browse(parentFolder(folder))}
        >
          <ArrowUp size={18} aria-hidden="true" />
        </button>
        <span className="folder-picker__path">{isRoot ? t('files.home') : folder}</span>
      </div>
      <ul
        role="listbox"
        tabIndex={0}
        className="folder-picker__list"
        aria-label={t('ops.foldersIn', { folder: isRoot ? t('files.home') : folder })}
        aria-activedescendant={
          chosen !== null && folders[activeIndex] ? optionId(activeIndex) : undefined
        }
        aria-busy={query.isPending}
        aria-describedby={`${listId}-hint`}
        onKeyDown={handleKeyDown}
      >
        {folders.map((item, index) => {
          const isChosen = chosen !== null && isSamePath(chosen, item.path);
          return (
            <li
              key={item.path}
              id={optionId(index)}
              role="option"
              aria-selected={isChosen}
              className="folder-picker__option"
              onClick={() => {
                setActive(index);
                onChoose(isChosen ? null : item.path);
              }}
              onDoubleClick={() => browse(item.path)}
            >
              <Folder size={20} aria-hidden="true" />
              <bdi>{item.name}</bdi>
            </li>
          );
        })}
      </ul>
      {query.isSuccess && folders.length === 0 && (
        <p className="folder-picker__empty">{t('ops.noSubfolders')}</p>
      )}
      {query.isError && (
        <p className="field__error" role="alert">
          {query.error.message}
        </p>
      )}
      <p id={`${listId}-hint`} className="folder-picker__hint">
        {t('ops.pickerHint')}
      </p>
    </div>
  );
}
