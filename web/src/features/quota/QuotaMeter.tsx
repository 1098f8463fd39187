import { useQuotaQuery } from '../../api/quota/quota-query.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { formatFileSize } from '../../format/file-size.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import './quota.css';

/** The sidebar's storage bar, "3.2 GiB of 10 GiB", for users with a quota; nothing otherwise. */
export function QuotaMeter() {
  const { t, i18n } = useTranslation();
  const { data } = useQuotaQuery(true);
  if (!data || data.quota === 0) return null;
  const used = formatFileSize(data.used, i18n.language);
  const quota = formatFileSize(data.quota, i18n.language);
  const percent = Math.min(100, Math.round((data.used / data.quota) * 100));
  return (
    <div className="quota-meter" data-full={data.used >= data.quota}>
      <ProgressBar label={t('quota.meterLabel')} percent={percent} />
      <p className="quota-meter__text">{t('quota.usedOf', { used, quota })}</p>
    </div>
  );
}
