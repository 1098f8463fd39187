import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm, type ResourceItem } from '@cabinet/protocol';
import { Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useResourceChecksumQuery } from '../../api/resources/resource-checksum-query.ts';
import { notifySuccess } from '../../stores/notification-store.ts';

const LABELS: Record<ChecksumAlgorithm, string> = {
  md5: 'MD5',
  sha1: 'SHA-1',
  sha256: 'SHA-256',
  sha512: 'SHA-512',
};

/** Puts text on the system clipboard; the selected field is the fallback without the API. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (an insecure origin) or no permission: copy the selected field instead.
    field?.select();
    document.execCommand('copy');
  }
}

/** One algorithm: a button that computes it, then the digest with a copy button. */
function ChecksumRow({ file, algorithm }: { file: ResourceItem; algorithm: ChecksumAlgorithm }) {
  const { t } = useTranslation();
  const [isWanted, setWanted] = useState(false);
  const query = useResourceChecksumQuery(file.path, file.modified, algorithm, isWanted);
  const label = LABELS[algorithm];
  const labelId = `${useId()}-label`;

  return (
    <li className="checksums__row">
      <span id={labelId} className="checksums__label">
        {label}
      </span>
      {!isWanted ? (
        <button
          type="button"
          className="button button--secondary button--small checksums__compute"
          onClick={() => setWanted(true)}
        >
          {t('ops.computeChecksum', { algorithm: label })}
        </button>
      ) : query.isError ? (
        <p className="field__error" role="alert">
          {query.error.message}
        </p>
      ) : (
        <div className="checksums__value">
          <input
            className="input checksums__digest"
            readOnly
            aria-labelledby={labelId}
            value={query.data ?? t('ops.calculating')}
            aria-busy={query.isPending}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={t('ops.copyChecksum', { algorithm: label })}
            title={t('ops.copyChecksum', { algorithm: label })}
            disabled={!query.data}
            onClick={(event) => {
              const field = event.currentTarget.previousElementSibling as HTMLInputElement | null;
              void copyText(query.data ?? '', field).then(() =>
                notifySuccess(t('ops.checksumCopied', { algorithm: label })),
              );
            }}
          >
            <Copy size={18} aria-hidden="true" />
          </button>
        </div>
      )}
    </li>
  );
}

/** A file's checksums, each computed only when asked for (hashing a big file takes a while). */
export function ChecksumList({ file }: { file: ResourceItem }) {
  const { t } = useTranslation();
  return (
    <section className="checksums" aria-labelledby="checksums-title">
      <h3 id="checksums-title" className="checksums__title">
        {t('ops.checksums')}
      </h3>
      <ul className="checksums__list">
        {CHECKSUM_ALGORITHMS.map((algorithm) => (
          <ChecksumRow key={algorithm} file={file} algorithm={algorithm} />
        ))}
      </ul>
    </section>
  );
}
