import { ARCHIVE_FORMATS, type ArchiveFormat } from '@cabinet/protocol';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { publicDownloadUrl } from '../../api/shares/public-share.ts';
import { useTranslation } from '../../i18n/use-translation.ts';

const FORMATS = Object.keys(ARCHIVE_FORMATS) as ArchiveFormat[];

/** The download button of a share page; folders choose their archive format first. */
export function ShareDownload({
  hash,
  sub,
  isDir,
  token,
  visit,
}: {
  hash: string;
  sub: string;
  isDir: boolean;
  token?: string;
  visit?: string;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  const [format, setFormat] = useState<ArchiveFormat>('zip');
  const href = publicDownloadUrl(hash, sub, { token, visit, format: isDir ? format : undefined });
  return (
    <div className="public-share__download">
      {isDir && (
        <div className="public-share__format">
          <label htmlFor={selectId} className="field__label">
            {t('share.downloadAs')}
          </label>
          <select
            id={selectId}
            className="input"
            value={format}
            onChange={(event) => setFormat(event.target.value as ArchiveFormat)}
          >
            {FORMATS.map((value) => (
              <option key={value} value={value}>
                {ARCHIVE_FORMATS[value]}
              </option>
            ))}
          </select>
        </div>
      )}
      <a className="button" href={href} download="">
        <Download size={20} aria-hidden="true" />
        {t('share.download')}
      </a>
    </div>
  );
}
