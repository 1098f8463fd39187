import type { Share } from '@cabinet/protocol';
import { Copy, Inbox, KeyRound, QrCode, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { shareUrl } from '../../api/shares/public-share.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyError, notifySuccess } from '../../stores/notification-store.ts';
import { copyText } from './copy-text.ts';
import { LazyQrCode } from './LazyQrCode.tsx';

/** When a link ends, in words: "Permanent" or "Expires 3 Dec 2026, 14:00". */
export function useExpiryText(): (share: Share) => string {
  const { t, i18n } = useTranslation();
  return (share) =>
    share.expire === 0
      ? t('share.permanent')
      : t('share.expires', { when: formatDateTime(new Date(share.expire * 1000), i18n.language) });
}

/** "3 downloads" or "3 of 10 downloads". */
export function useDownloadsText(): (share: Share) => string {
  const { t } = useTranslation();
  return (share) =>
    share.downloadLimit > 0
      ? t('share.downloadsOfLimit', { count: share.downloads, limit: share.downloadLimit })
      : t('share.downloads', { count: share.downloads });
}

/** One link of the share dialog: its address, expiry and counts; copy, QR code and delete. */
export function ShareLinkItem({
  share,
  onDelete,
  isDeleting,
}: {
  share: Share;
  onDelete: () => void;
  isDeleting: boolean;
}) {
  const { t } = useTranslation();
  const expiry = useExpiryText();
  const downloads = useDownloadsText();
  const [showQr, setShowQr] = useState(false);
  const url = shareUrl(share.hash);

  const handleCopy = async () => {
    try {
      await copyText(url);
      notifySuccess(t('share.copied'));
    } catch {
      notifyError(t('share.copyFailed'));
    }
  };

  return (
    <li className="share-link">
      <div className="share-link__main">
        <a className="share-link__url" href={url} target="_blank" rel="noreferrer">
          {url}
        </a>
        <span className="share-link__meta">
          {expiry(share)}
          {' · '}
          {downloads(share)}
          {share.isRequest && (
            <span className="share-link__badge">
              <Inbox size={14} aria-hidden="true" />
              {t('share.request')}
            </span>
          )}
          {share.hasPassword && (
            <span className="share-link__badge">
              <KeyRound size={14} aria-hidden="true" />
              {t('share.protected')}
            </span>
          )}
        </span>
      </div>
      <div className="share-link__actions">
        <button
          type="button"
          className="icon-button"
          aria-label={t('share.copyLink')}
          title={t('share.copyLink')}
          onClick={() => void handleCopy()}
        >
          <Copy size={20} aria-hidden="true" />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('share.showQr')}
          title={t('share.showQr')}
          aria-pressed={showQr}
          onClick={() => setShowQr(!showQr)}
        >
          <QrCode size={20} aria-hidden="true" />
        </button>
        <button
          type="button"
          className="icon-button share-link__delete"
          aria-label={t('share.deleteLink')}
          title={t('share.deleteLink')}
          disabled={isDeleting}
          onClick={onDelete}
        >
          <Trash2 size={20} aria-hidden="true" />
        </button>
      </div>
      {showQr && (
        <div className="share-link__qr">
          <LazyQrCode value={url} label={t('share.qrLabel')} />
        </div>
      )}
    </li>
  );
}
