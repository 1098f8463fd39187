import { RefreshCw, WifiOff } from 'lucide-react';
import { probeNow } from '../../api/connection-monitor.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useConnectionStore } from '../../stores/connection-store.ts';
import './offline-banner.css';

/**
 * Says that the server cannot be reached while it cannot, above whatever was on screen (which
 * stays). The app probes by itself and the banner goes when the server answers; Retry probes now.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const isReachable = useConnectionStore((s) => s.isReachable);
  const isProbing = useConnectionStore((s) => s.isProbing);
  if (isReachable) return null;
  return (
    <div className="offline-banner" role="alert">
      <WifiOff className="offline-banner__icon" size={20} aria-hidden="true" />
      <p className="offline-banner__text">
        <strong>{t('offline.title')}</strong> {t('offline.detail')}
      </p>
      <button
        type="button"
        className="button button--small button--secondary"
        onClick={() => void probeNow()}
        disabled={isProbing}
      >
        <RefreshCw size={16} aria-hidden="true" />
        {isProbing ? t('offline.retrying') : t('offline.retry')}
      </button>
    </div>
  );
}
