import type { ResourceItem } from '@cabinet/protocol';
import { useMediaInfoQuery } from '../../api/resources/media-info-query.ts';
import { formatClock, isoDuration } from '../../format/clock.ts';
import { useTranslation } from '../../i18n/use-translation.ts';

/**
 * A video's length ("3:07") on its tile or row, read by the server (`GET /api/preview/info`,
 * cached per file version) once the tile is drawn and its poster frame has loaded, so it never
 * delays the listing or a thumbnail. Screen readers hear "Duration 3:07"; the digits stay
 * left-to-right in a right-to-left page.
 */
export function VideoDuration({ item, className }: { item: ResourceItem; className: string }) {
  const { t } = useTranslation();
  const { data } = useMediaInfoQuery(item.path, item.modified, true, true);
  const seconds = data?.durationSeconds;
  if (seconds === undefined) return null;
  const clock = formatClock(seconds);
  return (
    <span className={className} data-testid="duration">
      <span className="visually-hidden">{t('files.videoDuration', { duration: clock })}</span>
      <time dir="ltr" dateTime={isoDuration(seconds)} aria-hidden="true">
        {clock}
      </time>
    </span>
  );
}
