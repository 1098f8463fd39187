import { useTranslation } from '../../i18n/use-translation.ts';
import { formatDateTime, formatRelativeTime } from '../../format/date-time.ts';
import { useCurrentUser } from '../../stores/session-store.ts';

/** When an entry changed: relative ("3 hours ago"), or absolute when the user prefers exact dates. */
export function ModifiedTime({ modified }: { modified: string }) {
  const { i18n } = useTranslation();
  const exact = useCurrentUser()?.dateFormat ?? false;
  const date = new Date(modified);
  if (Number.isNaN(date.getTime())) return <span>—</span>;
  const full = formatDateTime(date, i18n.language);
  return (
    <time dateTime={modified} title={full}>
      {exact ? full : formatRelativeTime(date, i18n.language)}
    </time>
  );
}
