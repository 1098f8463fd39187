import { Fragment, type ReactNode } from 'react';
import { useQuotaQuery } from '../../api/quota/quota-query.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { formatFileSize } from '../../format/file-size.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import './quota.css';

/** Stand-ins for the figures while the sentence is translated (private-use characters, never in a catalogue). */
const USED = '\uE000';
const QUOTA = '\uE001';

/**
 * The translated sentence with each figure in its own `<bdi>`: "2.9 KiB" is a left-to-right run
 * (a number and a Latin unit) that an Arabic sentence would otherwise split and reorder
 * ("KiB 2.9 من KiB 10"); isolated, each reads as written and the sentence around them reads right
 * to left.
 */
function usedOf(sentence: string, used: string, quota: string): ReactNode[] {
  return sentence.split(/([\uE000\uE001])/).map((part, i) =>
    part === USED || part === QUOTA ? (
      <bdi key={i} dir="ltr">
        {part === USED ? used : quota}
      </bdi>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

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
      <p className="quota-meter__text">
        {usedOf(t('quota.usedOf', { used: USED, quota: QUOTA }), used, quota)}
      </p>
    </div>
  );
}
