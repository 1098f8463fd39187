import { useTranslation } from '../../i18n/use-translation.ts';
import { useResourceDeleteMutation } from '../../api/resources/resource-delete-mutation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';
import { useQueryClient } from '@tanstack/react-query';
import { trashSettingsOf } from '../../api/trash.ts';
import { formatDays } from '../../format/duration.ts';
import { parentFolder } from '../../paths/file-paths.ts';
import { forgetSelected, isOnScreen, reloadListings, showPath } from './operation-context.ts';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { useDialogTargets } from './use-dialog-targets.ts';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { startFileJob } from '../../api/jobs/file-jobs.ts';
import { ApiError } from '../../api/api-error.ts';
import { waitForJob } from '../jobs/index.ts';
import './operations.css';

/**
 * Deletes several entries, or a folder, as one background job followed in the Jobs panel
 * (docs/jobs.md); resolves like the one-by-one delete: what is gone and the failure.
 */
async function deleteAsJob(paths: string[]): Promise<{ deleted: string[]; error: Error | null }> {
  try {
    const job = await waitForJob(
      await startFileJob({ kind: 'delete', items: paths.map((from) => ({ from })) }),
    );
    if (job.state === 'done') return { deleted: paths, error: null };
    const error = job.error ? new ApiError(job.error.status, job.error.message) : null;
    return { deleted: [], error };
  } catch (error) {
    return { deleted: [], error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * Delete one entry or several: confirmed with the red button
 * (Enter), removed in parallel, then the listing reloads. A deleted entry that was on screen
 * gives way to its folder unless the caller's `onDone` decides where to go.
 */
export function DeleteDialog({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const targets = useDialogTargets(dialog).filter((item) => item.path !== '/');
  const remove = useResourceDeleteMutation();
  const queryClient = useQueryClient();
  const confirmRef = useInitialFocus<HTMLButtonElement>();
  if (targets.length === 0)
    return <NothingToActOn title={t('ops.deleteTitle')} onClose={onClose} />;

  const asJob = targets.length > 1 || targets.some((item) => item.isDir);
  const handleSubmit = () => {
    if (remove.isPending) return;
    const paths = targets.map((item) => item.path);
    if (asJob) {
      onClose();
      void deleteAsJob(paths).then((result) => afterDelete(result));
      return;
    }
    remove.mutate(paths, { onSuccess: (result) => afterDelete(result) });
  };
  const afterDelete = async ({ deleted, error }: { deleted: string[]; error: Error | null }) => {
    onClose();
    forgetSelected(deleted);
    const shown = targets.find((item) => deleted.includes(item.path) && isOnScreen(item.path));
    // Leave a deleted view before reloading, or it would show "not found".
    if (!error && dialog.onDone) dialog.onDone();
    else if (shown) await showPath(parentFolder(shown.path), true);
    void reloadListings();
    if (error) notifyFailure(error);
    else {
      // The wire DELETE moved them to the trash: say where they went and for how long they stay
      // there (docs/trash.md).
      const trash = await trashSettingsOf(queryClient);
      if (trash?.enabled) {
        const days = formatDays(trash.retentionDays, i18n.language);
        notifySuccess(t('trash.movedToTrashFor', { days }));
      }
    }
  };

  const single = targets.length === 1;
  return (
    <Dialog
      title={t('ops.deleteTitle')}
      onClose={onClose}
      onSubmit={handleSubmit}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button
            ref={confirmRef}
            type="submit"
            className="button button--danger"
            disabled={remove.isPending}
          >
            {t('ops.delete')}
          </button>
        </>
      }
    >
      <p>{single ? t('ops.deleteOne') : t('ops.deleteMany', { count: targets.length })}</p>
      {single && <p className="operation__subject">{targets[0]!.name}</p>}
    </Dialog>
  );
}
