import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { ApiError } from '../../api/api-error.ts';
import { useResourceCreateMutation } from '../../api/resources/resource-create-mutation.ts';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { fetchResource } from '../../api/resources/resource-query.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { currentFolderOf, routeFromScopePath } from '../../paths/file-paths.ts';
import { nameProblem } from '../../paths/entry-name.ts';

/**
 * New file / new folder: the name is trimmed and created in the folder on
 * screen, then the view opens the new item. An existing name is refused, never overwritten.
 */
export function NewEntryDialog({ isDir, onClose }: { isDir: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useResourceCreateMutation();
  const queryClient = useQueryClient();

  const handleSubmit = async () => {
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setProblem(t(invalid));
      return;
    }
    const folder = currentFolderOf(pathname);
    // Creating a folder that exists succeeds on the server (mkdir -p); say so instead of
    // silently opening the old one.
    const listing = await queryClient
      .fetchQuery({
        queryKey: resourceKeys.detail(folder),
        queryFn: ({ signal }) => fetchResource(folder, signal),
        staleTime: 0,
      })
      .catch(() => undefined);
    if (listing?.items?.some((item) => item.name === trimmed)) {
      setProblem(t('dialogs.nameTaken'));
      return;
    }
    const path = `${folder}${trimmed}${isDir ? '/' : ''}`;
    create.mutate(
      { path },
      {
        onSuccess: () => {
          onClose();
          void navigate(routeFromScopePath(path, isDir));
        },
        onError: (error) => {
          setProblem(
            error instanceof ApiError && error.kind === 'conflict'
              ? t('dialogs.nameTaken')
              : error.message,
          );
        },
      },
    );
  };

  const title = t(isDir ? 'dialogs.newDirTitle' : 'dialogs.newFileTitle');
  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={() => void handleSubmit()}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button" disabled={create.isPending}>
            {t('buttons.create')}
          </button>
        </>
      }
    >
      <label className="field">
        <span className="field__label">
          {t(isDir ? 'dialogs.newDirMessage' : 'dialogs.newFileMessage')}
        </span>
        <input
          className="input"
          value={name}
          autoFocus
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'new-entry-problem' : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
        />
      </label>
      {problem && (
        <p id="new-entry-problem" className="field__error" role="alert">
          {problem}
        </p>
      )}
    </Dialog>
  );
}
