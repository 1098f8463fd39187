import type { ResourceItem } from '@cabinet/protocol';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useResourceQuery } from '../../api/resources/resource-query.ts';
import { useResourceTreeSizeQuery } from '../../api/resources/resource-tree-size-query.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { formatDateTime } from '../../format/date-time.ts';
import { formatFileSize } from '../../format/file-size.ts';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { ChecksumList } from './ChecksumList.tsx';
import { MediaFacts } from './MediaFacts.tsx';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { useDialogTargets } from './use-dialog-targets.ts';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import './operations.css';

/** Words for the server's file types. */
const TYPE_LABELS: Record<string, string> = {
  image: 'ops.typeImage',
  audio: 'ops.typeAudio',
  video: 'ops.typeVideo',
  pdf: 'ops.typePdf',
  text: 'ops.typeText',
  textImmutable: 'ops.typeText',
};

/** One "term: value" line of the info list. */
function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The total size line: files count their size, folders the files inside them. */
function TotalSize({ items }: { items: readonly ResourceItem[] }) {
  const { t, i18n } = useTranslation();
  const { total, isError } = useResourceTreeSizeQuery(items);
  if (isError) return <>{t('ops.sizeUnavailable')}</>;
  if (total === undefined) return <span aria-busy="true">{t('ops.calculating')}</span>;
  return <span className="bidi-ltr">{formatFileSize(total, i18n.language)}</span>;
}

/** A folder's own counts of folders and files (from its listing). */
function FolderCounts({ folder }: { folder: ResourceItem }) {
  const { t } = useTranslation();
  const path = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  const query = useResourceQuery(path);
  const pending = <span aria-busy="true">{t('ops.calculating')}</span>;
  return (
    <>
      <Fact term={t('ops.folders')}>{query.data?.numDirs ?? pending}</Fact>
      <Fact term={t('ops.files')}>{query.data?.numFiles ?? pending}</Fact>
    </>
  );
}

/**
 * Info: for one entry its name, type, size, last modified and, for a folder,
 * how many folders and files it holds, for a photo its camera and exposure, for a video or song
 * its duration and tags; a file's checksums are computed on demand. For several
 * entries: how many folders and files are selected and their total size.
 */
export function InfoDialog({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const targets = useDialogTargets(dialog);
  const perm = useCurrentUser()?.perm;
  const okRef = useInitialFocus<HTMLButtonElement>();
  if (targets.length === 0) return <NothingToActOn title={t('ops.infoTitle')} onClose={onClose} />;

  const single = targets.length === 1 ? targets[0]! : null;
  const canDownload = Boolean(perm && (perm.admin || perm.download));
  return (
    <Dialog
      title={t('ops.infoTitle')}
      onClose={onClose}
      onSubmit={onClose}
      actions={
        <button ref={okRef} type="submit" className="button">
          {t('buttons.ok')}
        </button>
      }
    >
      <dl className="facts">
        {single ? (
          <>
            <Fact term={t('ops.name')}>{single.name || t('files.home')}</Fact>
            <Fact term={t('ops.type')}>
              {t(single.isDir ? 'ops.typeFolder' : (TYPE_LABELS[single.type] ?? 'ops.typeOther'))}
            </Fact>
            <Fact term={t('ops.size')}>
              <TotalSize items={targets} />
            </Fact>
            {single.isDir && <FolderCounts folder={single} />}
            <Fact term={t('files.lastModified')}>
              <time dateTime={single.modified}>
                {formatDateTime(new Date(single.modified), i18n.language)}
              </time>
            </Fact>
            {canDownload && <MediaFacts file={single} Fact={Fact} />}
          </>
        ) : (
          <>
            <Fact term={t('ops.selected')}>{targets.length}</Fact>
            <Fact term={t('ops.folders')}>{targets.filter((item) => item.isDir).length}</Fact>
            <Fact term={t('ops.files')}>{targets.filter((item) => !item.isDir).length}</Fact>
            <Fact term={t('ops.totalSize')}>
              <TotalSize items={targets} />
            </Fact>
          </>
        )}
      </dl>
      {single && !single.isDir && canDownload && <ChecksumList file={single} />}
    </Dialog>
  );
}
