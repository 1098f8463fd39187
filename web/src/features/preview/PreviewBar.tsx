import type { Resource } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Info, Pencil, Trash2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { isSamePath, parentFolder, routeFromScopePath } from '../../paths/file-paths.ts';
import { rawUrl } from '../../api/resources/preview-urls.ts';
import type { PreviewNavigation } from './use-preview-navigation.ts';

export interface PreviewBarProps {
  file: Resource;
  navigation: Pick<PreviewNavigation, 'close' | 'leaveDeleted'>;
  /** Shown after the name, e.g. the editor's unsaved-changes marker. */
  status?: ReactNode;
  /** Buttons of the viewer or editor, placed before the file actions. */
  children?: ReactNode;
}

/**
 * The bar above a preview or the editor: close, the file's name, then the viewer's own buttons and
 * rename, delete, download and info, each shown only with its permission.
 */
export function PreviewBar({ file, navigation, status, children }: PreviewBarProps) {
  const { t } = useTranslation();
  const perm = useCurrentUser()?.perm;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const openDialog = useDialogStore((s) => s.open);
  const refresh = () => queryClient.invalidateQueries({ queryKey: resourceKeys.all });

  const handleRename = () =>
    openDialog('rename', {
      targets: [file],
      onDone: (newPath) => {
        void refresh();
        if (newPath) void navigate(routeFromScopePath(newPath, false), { replace: true });
      },
    });
  const handleDelete = () =>
    openDialog('delete', {
      targets: [file],
      onDone: () => {
        // Drop the file from the cached listing at once: the next preview computes its own
        // neighbours from it, and must not step back onto the deleted file before the refetch.
        queryClient.setQueryData<Resource>(
          resourceKeys.detail(parentFolder(file.path)),
          (folder) =>
            folder?.items
              ? {
                  ...folder,
                  items: folder.items.filter((item) => !isSamePath(item.path, file.path)),
                }
              : folder,
        );
        void refresh();
        navigation.leaveDeleted();
      },
    });

  return (
    <div className="preview-bar" role="toolbar" aria-label={t('preview.toolbar')}>
      <button
        type="button"
        className="icon-button"
        aria-label={t('buttons.close')}
        title={t('preview.closeHint')}
        onClick={navigation.close}
      >
        <X size={20} aria-hidden="true" />
      </button>
      <h1 className="preview-bar__name" title={file.name}>
        <bdi>{file.name}</bdi>
      </h1>
      {status}
      <div className="preview-bar__spacer" />
      {children}
      {perm?.rename && (
        <button
          type="button"
          className="icon-button"
          aria-label={t('preview.rename')}
          title={t('preview.rename')}
          onClick={handleRename}
        >
          <Pencil size={20} aria-hidden="true" />
        </button>
      )}
      {perm?.delete && (
        <button
          type="button"
          className="icon-button preview-bar__danger"
          aria-label={t('preview.delete')}
          title={t('preview.delete')}
          onClick={handleDelete}
        >
          <Trash2 size={20} aria-hidden="true" />
        </button>
      )}
      {perm?.download && (
        <a
          className="icon-button"
          href={rawUrl(file.path)}
          download={file.name}
          aria-label={t('buttons.download')}
          title={t('buttons.download')}
        >
          <Download size={20} aria-hidden="true" />
        </a>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label={t('preview.info')}
        title={t('preview.info')}
        onClick={() => openDialog('info', { targets: [file] })}
      >
        <Info size={20} aria-hidden="true" />
      </button>
    </div>
  );
}
