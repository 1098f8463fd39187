import type { Resource } from '@cabinet/protocol';
import { Download } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { rawUrl } from '../../api/resources/preview-urls.ts';

/** "ZIP file", or "File" for a name without an extension. */
function useTypeLabel(file: Resource): string {
  const { t } = useTranslation();
  const extension = file.extension.replace(/^\./, '').toUpperCase();
  return extension ? t('preview.typeWithExtension', { extension }) : t('preview.typeUnknown');
}

/**
 * A file Cabinet does not show: its name, size and type and a download link (with the download
 * permission). `reason` says why it is not shown, when that is not just its type.
 */
export function FileFallback({ file, reason }: { file: Resource; reason?: string }) {
  const { t, i18n } = useTranslation();
  const canDownload = useCurrentUser()?.perm.download ?? false;
  const typeLabel = useTypeLabel(file);
  return (
    <div className="file-fallback">
      <FileIcon entry={file} size={64} />
      {reason && <p className="file-fallback__reason">{reason}</p>}
      <dl className="file-fallback__facts">
        <div>
          <dt>{t('files.size')}</dt>
          <dd className="bidi-ltr">{formatFileSize(file.size, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('preview.type')}</dt>
          <dd>{typeLabel}</dd>
        </div>
      </dl>
      {canDownload ? (
        <a className="button" href={rawUrl(file.path)} download={file.name}>
          <Download size={20} aria-hidden="true" />
          {t('preview.downloadFile', { name: file.name })}
        </a>
      ) : (
        <p className="file-fallback__reason">{t('preview.noDownload')}</p>
      )}
    </div>
  );
}
