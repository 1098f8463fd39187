import type { Resource } from '@cabinet/protocol';
import { Download } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { rawUrl } from '../../api/resources/preview-urls.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { ModifiedTime } from './ModifiedTime.tsx';
import './file-details.css';

/**
 * A single file: what it is and a download link (the auth cookie authorises it, so no token goes
 * into the URL). Previews and the editor take this place for the types they handle.
 */
export function FileDetails({ file }: { file: Resource }) {
  const { t, i18n } = useTranslation();
  const canDownload = useCurrentUser()?.perm.download ?? false;
  return (
    <section className="file-details" aria-labelledby="file-details-name">
      <FileIcon entry={file} size={64} />
      <h1 id="file-details-name" className="file-details__name">
        <bdi>{file.name}</bdi>
      </h1>
      <dl className="file-details__facts">
        <div>
          <dt>{t('files.size')}</dt>
          <dd className="bidi-ltr">{formatFileSize(file.size, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('files.lastModified')}</dt>
          <dd>
            <ModifiedTime modified={file.modified} />
          </dd>
        </div>
      </dl>
      {canDownload && (
        <a className="button" href={rawUrl(file.path)} download={file.name}>
          <Download size={20} aria-hidden="true" />
          {t('buttons.download')}
        </a>
      )}
    </section>
  );
}
